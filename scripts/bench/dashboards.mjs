// Idle signed-in dashboards one instance holds (docs/operations.md "Benchmarks"), in its own process so the
// clients never share a CPU queue with the server. Usage: node scripts/bench/dashboards.mjs <spec.json>;
// prints the steps as JSON.
//
// A dashboard is one signed-in tab on /dashboard (a browser of its own: on HTTP/1.1 straight to the instance, up
// to six keep-alive connections; or, behind the balancer, one HTTP/2 connection to HAProxy), doing what the web
// does:
// - "polling" (the spec's, and the web's fallback): the dashboard's conditional polls at the web's intervals
//   (recent transactions every 5 s; KYC status, support replies and the bell's unread count every 10 s), with
//   the ETags a browser keeps;
// - "streams": one GET /api/events held open, and no polls (the web stops them while the stream is healthy).
// Both also make the same reads of fresh data: the page's reads when it opens, then summary and recent
// transactions again every `readEveryS` (what a notice about a change, or coming back to the tab, refetches),
// unconditional; and while a step is measured, `probePerSecond` of the dashboards reopen the page, so every
// step has enough reads for a p99 whatever N is. N grows in steps; each step opens the new dashboards, lets them
// settle, then measures for `windowS`: those reads' latency (the same kind in both modes; the polls' own
// latency is reported beside them, 304s from memory mostly, and not held to the bound), the server's peak
// RSS, failed reads and lost streams. The ramp stops at the first step that breaks a bound; "holds" is the
// last step that kept them all.
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { cpuSeconds, rssMiB } from "./processes.mjs";

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const {
  mode,
  url,
  serverPid,
  tokens,
  cookieName,
  steps,
  settleS = 5,
  windowS = 15,
  readEveryS = 60,
  probePerSecond = 4,
  maxP99Ms = 50,
  maxRssMiB = 300,
  /** The bench's PostgreSQL (admin URL) and the scratch database's name, for its transaction count. */
  databaseUrl,
  databaseName,
  /** Measure every step even past a broken bound (the per-dashboard costs at equal N, on a busy machine). */
  keepGoing = false,
  /**
   * "h1": each dashboard is a browser on HTTP/1.1 straight to the instance (up to six keep-alive sockets);
   * "h2": a browser on HTTP/2 to the load balancer, its reads and stream on one connection (`url` is HAProxy's).
   */
  transport = "h1",
  /** The instance's own address, for its /metrics (`url` may be the balancer's). */
  serverUrl = url,
} = spec;
const base = new URL(url);

/** The dashboard's polls (web/lib/recent-transactions.ts, kyc, chat, the header's bell). */
const POLLS = [
  { path: "/api/transactions/recent", everyMs: 5_000 },
  { path: "/api/kyc/status", everyMs: 10_000 },
  { path: "/api/chat/unread", everyMs: 10_000 },
  { path: "/api/notifications/unread", everyMs: 10_000 },
];
/** What /dashboard reads when it opens. */
const PAGE_READS = [
  "/api/account/summary",
  "/api/transactions/recent",
  "/api/kyc/status",
  "/api/chat/unread",
  "/api/notifications/unread",
];
/** What a change notice (or coming back to the tab) refetches on the dashboard. */
const PERIODIC_READS = ["/api/account/summary", "/api/transactions/recent"];

let measuring = false;
let latencies = [];
let pollLatencies = [];
let failedReads = 0;
let lostStreams = 0;
let refusedStreams = 0;
const timers = new Set();

const every = (ms, fn) => {
  // A random phase, as tabs opened at different moments poll at different moments.
  const first = setTimeout(() => {
    timers.delete(first);
    fn();
    const t = setInterval(fn, ms);
    timers.add(t);
  }, Math.random() * ms);
  timers.add(first);
};

class Dashboard {
  constructor(token) {
    this.cookie = `${cookieName}=${token}`;
    // A browser keeps a few connections per host and reuses them; on HTTP/2, one carries everything.
    this.agent = transport === "h1" ? new http.Agent({ keepAlive: true, maxSockets: 6 }) : null;
    this.session = null;
    this.etags = new Map();
    this.stream = null;
    /** Polls still waiting for their answer: as TanStack Query does, a poll due meanwhile is not sent again. */
    this.inFlight = new Set();
  }

  /** `poll`: one of the dashboard's conditional polls (timed apart from the reads of fresh data). */
  read(path, conditional, poll = false) {
    const started = process.hrtime.bigint();
    const etag = conditional ? this.etags.get(path) : undefined;
    return new Promise((resolve) => {
      let settled = false;
      const fail = () => {
        if (settled) return;
        settled = true;
        if (measuring) failedReads += 1;
        resolve();
      };
      this.get(
        path,
        { cookie: this.cookie, ...(etag ? { "if-none-match": etag } : {}) },
        (status, headers, res) => {
          res.resume();
          res.on("end", () => {
            if (settled) return;
            settled = true;
            const ms = Number(process.hrtime.bigint() - started) / 1e6;
            const ok = status === 200 || status === 304;
            if (status === 200 && headers.etag) this.etags.set(path, headers.etag);
            if (measuring) {
              (poll ? pollLatencies : latencies).push(ms);
              if (!ok) failedReads += 1;
            }
            resolve();
          });
          // An answer cut off midway ends with "close" and no "end": a failed read, never a hung one.
          res.on("close", fail);
        },
        fail,
      );
    });
  }

  /**
   * One GET on this dashboard's transport; `onResponse(status, headers, body)`, or `onError` when no answer
   * comes. `own`: on HTTP/1.1, a connection of its own (the stream), as a browser's EventSource holds one.
   * Returns the request, to destroy.
   */
  get(path, headers, onResponse, onError, { own = false } = {}) {
    if (transport === "h1") {
      const req = http.request(
        { host: base.hostname, port: base.port, path, agent: own ? false : this.agent, headers },
        (res) => onResponse(res.statusCode, res.headers, res),
      );
      req.on("error", onError);
      req.end();
      return req;
    }
    if (!this.session || this.session.closed || this.session.destroyed) {
      this.session = http2.connect(base);
      // A lost connection surfaces on its requests ("close" without an answer); nothing more to do here.
      this.session.on("error", () => {});
    }
    const req = this.session.request({ ":path": path, ...headers }, { endStream: true });
    let answered = false;
    req.on("response", (h) => {
      answered = true;
      onResponse(h[":status"], h, req);
    });
    // A stream reset before its answer may close without an "error": either way, once.
    const failed = () => {
      if (answered) return;
      answered = true;
      onError();
    };
    req.on("error", failed);
    req.on("close", failed);
    return req;
  }

  /** Resolves once the stream has said `ready` (or failed). */
  openStream() {
    return new Promise((resolve) => {
      const req = this.get(
        "/api/events",
        { cookie: this.cookie, accept: "text/event-stream" },
        (status, _headers, res) => {
          if (status !== 200) {
            refusedStreams += 1;
            res.resume();
            return resolve(false);
          }
          let ready = false;
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            if (!ready && chunk.includes("event: ready")) {
              ready = true;
              resolve(true);
            }
            // An idle dashboard: no changes are made during the run, so nothing is refetched here.
          });
          res.on("close", () => {
            if (!ready) resolve(false);
            if (this.stream === req) lostStreams += 1;
          });
        },
        () => {
          refusedStreams += 1;
          resolve(false);
        },
        { own: true },
      );
      this.stream = req;
    });
  }

  async open() {
    if (mode === "streams") await this.openStream();
    await this.openPage();
    if (mode === "polling") {
      for (const poll of POLLS) {
        every(poll.everyMs, () => {
          if (this.inFlight.has(poll.path)) return;
          this.inFlight.add(poll.path);
          void this.read(poll.path, true, true).then(() => this.inFlight.delete(poll.path));
        });
      }
    }
    every(readEveryS * 1000, () => {
      for (const p of PERIODIC_READS) void this.read(p, false);
    });
  }

  openPage() {
    return Promise.all(PAGE_READS.map((p) => this.read(p, false)));
  }

  close() {
    const stream = this.stream;
    this.stream = null;
    stream?.destroy();
    this.agent?.destroy();
    this.session?.destroy();
  }
}

/** Transactions the scratch database has run: its round trips, steadier than latency on a shared machine. */
async function databaseTransactions() {
  if (!databaseUrl) return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select (xact_commit + xact_rollback)::bigint as n from pg_stat_database where datname = $1",
      [databaseName],
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** To one decimal, as the table prints them. */
const round = (n) => Math.round(n * 10) / 10;

/** Both histograms time a 10 ms timer (prom-client's default precision): a loop on time reads 10, reported as 0. */
const LAG_RESOLUTION_MS = 10;

/**
 * From the instance's loopback /metrics: its V8 heap (used, committed) and memory outside it, in MiB, and its
 * event loop's p99 delay in ms since the previous scrape (prom-client resets that histogram at each one).
 */
async function serverMetrics() {
  try {
    const text = await (await fetch(new URL("/metrics", serverUrl))).text();
    const value = (name) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? Number.NaN);
    // The dashboard's routes: answers within 50 ms and in all, as counted by the instance's own histogram.
    let within = 0;
    let all = 0;
    for (const m of text.matchAll(/^http_request_duration_seconds_bucket\{([^}]*)\} (\S+)$/gm)) {
      const labels = m[1];
      const route = /route="([^"]*)"/.exec(labels)?.[1];
      if (!route || !PAGE_READS.includes(route)) continue;
      if (labels.includes('le="0.05"')) within += Number(m[2]);
      else if (labels.includes('le="+Inf"')) all += Number(m[2]);
    }
    return {
      answers: { within, all },
      heap: {
        used: round(value("nodejs_heap_size_used_bytes") / 2 ** 20),
        total: round(value("nodejs_heap_size_total_bytes") / 2 ** 20),
        external: round(value("nodejs_external_memory_bytes") / 2 ** 20),
      },
      lagP99Ms: round(value("nodejs_eventloop_lag_p99_seconds") * 1000 - LAG_RESOLUTION_MS),
    };
  } catch {
    return { answers: null, heap: null, lagP99Ms: null };
  }
}

/**
 * This process's own event-loop delay: the dashboards' clients share the machine's cores with the instance,
 * HAProxy and PostgreSQL, and a late client adds its lateness to every read it times. Beside the instance's
 * own delay it says which side a broken p99 comes from.
 */
const clientLag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
clientLag.enable();

const percentile = (sorted, p) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const dashboards = [];
const results = [];
for (const target of steps) {
  if (target > tokens.length) break;
  // The new dashboards open over a few seconds, in small groups, as tabs do.
  const adding = tokens.slice(dashboards.length, target).map((t) => new Dashboard(t));
  const group = Math.max(1, Math.ceil(adding.length / 50));
  for (let i = 0; i < adding.length; i += group) {
    await Promise.all(adding.slice(i, i + group).map((d) => d.open()));
    dashboards.push(...adding.slice(i, i + group));
  }
  await sleep(settleS * 1000);

  latencies = [];
  pollLatencies = [];
  failedReads = 0;
  const lostBefore = lostStreams;
  const refusedBefore = refusedStreams;
  let rss = rssMiB(serverPid) ?? 0;
  const sampler = setInterval(() => {
    rss = Math.max(rss, rssMiB(serverPid) ?? 0);
  }, 250);
  const cpuBefore = cpuSeconds(serverPid);
  const transactionsBefore = await databaseTransactions();
  // A scrape now starts the instance's delay histogram afresh for the window.
  const serverBefore = await serverMetrics();
  clientLag.reset();
  measuring = true;
  const probe = setInterval(() => {
    void dashboards[Math.floor(Math.random() * dashboards.length)].openPage();
  }, 1000 / probePerSecond);
  await sleep(windowS * 1000);
  clearInterval(probe);
  measuring = false;
  clearInterval(sampler);
  const cpuAfter = cpuSeconds(serverPid);
  const transactionsAfter = await databaseTransactions();
  const perDashboardMinute = (n) => (n == null ? null : n / dashboards.length / (windowS / 60));
  rss = Math.max(rss, rssMiB(serverPid) ?? 0);
  const clientLagP99Ms = round(clientLag.percentile(99) / 1e6 - LAG_RESOLUTION_MS);
  const server = await serverMetrics();
  const sorted = [...latencies].sort((a, b) => a - b);
  const polls = [...pollLatencies].sort((a, b) => a - b);
  const step = {
    dashboards: dashboards.length,
    reads: sorted.length,
    readsPerSecond: sorted.length / windowS,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    polls: polls.length,
    pollP99: percentile(polls, 99),
    failedReads,
    lostStreams: lostStreams - lostBefore,
    refusedStreams: refusedStreams - refusedBefore,
    rss,
    // Where the RSS is, read once the window ends (the heap's own figures, not a peak).
    heap: server.heap,
    // The p99 of each event loop's delay over the window: the instance's, and this load generator's.
    serverLagP99Ms: server.lagP99Ms,
    clientLagP99Ms,
    // The share of the instance's answers on the dashboard's routes (polls included) that took over 50 ms from
    // its receiving the request to its sending the answer: beside the p99 the clients saw, where the time went.
    serverSlowShare:
      server.answers && serverBefore.answers && server.answers.all > serverBefore.answers.all
        ? 1 -
          (server.answers.within - serverBefore.answers.within) /
            (server.answers.all - serverBefore.answers.all)
        : null,
    // Share of one core, and the server's CPU ms and PostgreSQL transactions per dashboard per minute (the
    // probe's page loads included: the same in both modes).
    serverCpu: cpuBefore == null || cpuAfter == null ? null : (cpuAfter - cpuBefore) / windowS,
    cpuMsPerDashboardMinute:
      cpuBefore == null || cpuAfter == null ? null : perDashboardMinute((cpuAfter - cpuBefore) * 1000),
    transactionsPerDashboardMinute:
      transactionsBefore == null ? null : perDashboardMinute(transactionsAfter - transactionsBefore),
  };
  step.held =
    step.p99 !== null &&
    step.p99 <= maxP99Ms &&
    step.rss <= maxRssMiB &&
    step.failedReads === 0 &&
    step.lostStreams === 0 &&
    step.refusedStreams === 0;
  results.push(step);
  process.stderr.write(`${mode} ${JSON.stringify(step)}\n`);
  if (!step.held && !keepGoing) break;
}

for (const t of timers) clearTimeout(t);
for (const d of dashboards) d.close();
const held = results.filter((s) => s.held);
const summary = JSON.stringify({
  mode,
  steps: results,
  holds: held.length ? held[held.length - 1].dashboards : 0,
  // Every step held: the figure is a floor, not the instance's limit.
  capped: results.length > 0 && results.every((s) => s.held),
});
// Exit once written: sockets closing to a busy server must not keep the process (and the bench) waiting.
process.stdout.write(summary, () => process.exit(0));
