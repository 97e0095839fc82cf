// One load run, in its own process so the load generator never shares a CPU queue with the server.
// Usage: node scripts/bench/load.mjs <spec.json>; prints the autocannon summary as JSON on stdout.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import autocannon from "autocannon";

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const {
  scenario,
  url,
  duration,
  connections,
  tokens = [],
  cookieName = "sid",
  logins = [],
  /** tag-spread: the $tag each of `tokens` pays, by position. */
  payees = [],
  /** transfer-spread: sessions whose first transfer of the run is ALERT_AMOUNT (seed.mjs's alert users). */
  alertTokens = [],
} = spec;

const cookie = (token) => `${cookieName}=${token}`;
/**
 * The address a customer pays: their own, the same on each of their transfers. One address for every customer
 * made each transfer a many-to-one monitoring alert (the alert and its case in a transaction of their own, seven
 * more statements): it measured the alert path, not what a transfer costs (bench/HISTORY.md, session 20).
 */
const addressOf = (token) => `0x${createHash("sha256").update(token).digest("hex").slice(0, 40)}`;
const runId = randomBytes(4).toString("hex");
let counter = 0;
let nextUser = 0;

/** What the browser keeps between polls: the last ETag per session and URL, sent back as If-None-Match. */
const etags = new Map();
function pollRequest(path, isFirst) {
  return {
    method: "GET",
    path,
    setupRequest(req, context) {
      if (isFirst) context.token = tokens[nextUser++ % tokens.length];
      const etag = etags.get(`${context.token} ${path}`);
      return {
        ...req,
        headers: { cookie: cookie(context.token), ...(etag ? { "if-none-match": etag } : {}) },
      };
    },
    onResponse(status, _body, context, headers) {
      if (status === 200 && headers?.etag) etags.set(`${context.token} ${path}`, headers.etag);
    },
  };
}

/** The new-device-then-new-address rule's smallest transfer (newDeviceNewAddress.minAmountCents, rules.ts). */
const ALERT_AMOUNT = "200.00";
const alertPending = new Set(alertTokens);

function transferRequest(pickToken) {
  return {
    method: "POST",
    path: "/api/transfer/request",
    setupRequest(req) {
      counter += 1;
      const token = pickToken();
      // An alert user's first transfer here goes to an address new to them: the one that raises the alert.
      const amount = alertPending.delete(token) ? ALERT_AMOUNT : "0.01";
      return {
        ...req,
        headers: {
          cookie: cookie(token),
          "content-type": "application/json",
          "idempotency-key": `bench-${runId}-${counter}`,
        },
        body: JSON.stringify({
          amount,
          recipientName: "Bench Recipient",
          purpose: "Benchmark transfer",
          paymentMethod: "crypto",
          cryptoAddress: addressOf(token),
        }),
      };
    },
  };
}

/** POST /api/transfer/tag-payments as the web sends it (web/features/tag-payments/api/pay-by-tag.ts). */
function tagPaymentRequest() {
  return {
    method: "POST",
    path: "/api/transfer/tag-payments",
    setupRequest(req) {
      counter += 1;
      const i = nextUser++ % tokens.length;
      return {
        ...req,
        headers: {
          cookie: cookie(tokens[i]),
          "content-type": "application/json",
          "idempotency-key": `bench-${runId}-${counter}`,
        },
        body: JSON.stringify({ tag: payees[i], amount: "0.01" }),
      };
    },
  };
}

const SCENARIOS = {
  // The signed-in dashboard's polls (web/lib/recent-transactions.ts,
  // get-account-summary.ts, web/features/kyc/api/get-kyc-status.ts) and /contact's chat poll, one session
  // after another.
  poll: () => [
    pollRequest("/api/transactions/recent", true),
    pollRequest("/api/account/summary", false),
    pollRequest("/api/kyc/status", false),
    pollRequest("/api/chat/messages", false),
  ],
  "transfer-spread": () => [transferRequest(() => tokens[nextUser++ % tokens.length])],
  "transfer-hot": () => [transferRequest(() => tokens[0])],
  "tag-spread": () => [tagPaymentRequest()],
  login: () => [
    {
      method: "POST",
      path: "/api/auth/login",
      setupRequest(req) {
        const { email, password } = logins[nextUser++ % logins.length];
        return {
          ...req,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password }),
        };
      },
    },
  ],
  baseline: () => [{ method: "GET", path: "/" }],
};

const result = await autocannon({
  url,
  duration,
  connections,
  requests: SCENARIOS[scenario](),
});
const statusCodes = result.statusCodeStats ?? {};
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(statusCodes).map(([code, s]) => [code, s.count])),
  }),
);
