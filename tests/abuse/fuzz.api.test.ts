import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE, type RouteCase } from "@/tests/abuse/catalogue";
import {
  createWorld,
  expectLedgerOk,
  expectReasonForFlags,
  type Role,
  signedInAs,
  snapshot,
  type World,
} from "@/tests/abuse/world";

// Generated garbage at every route that takes input, sent as the role the route is for (so the handler, not
// the auth check, meets it): never a 5xx, a JSON `message` on every 4xx, and no write on any refusal.
const SEED = 20261123;
const RUNS = Number(process.env.ABUSE_FUZZ_RUNS ?? 12);

let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(async () => {
  await w?.t.close();
});

const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0000\u0000\u0000",
  "\ud800",
  "\uffff",
  "💸💸💸",
  "ｓｅｃｒｅｔ",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "-0.01",
  "0.001",
  "1.005",
  "-0",
  "1e309",
  "9".repeat(400),
  "0x10",
  "$-5.00",
  "__proto__",
  "constructor",
  "../../etc/passwd",
  "%00",
  "' or 1=1 --",
  "<script>alert(1)</script>",
  "x".repeat(100_000),
];
const NASTY_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  -0.01,
  0.001,
  1.5,
  -1e21,
  1e21,
  Number.MAX_SAFE_INTEGER + 2,
  [],
  [1, 2],
  ["a"],
  {},
  { toString: "x" },
];

const nastyString = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ unit: "binary", maxLength: 40 }));
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.constantFrom(...NASTY_VALUES),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(nastyString, { maxLength: 3 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
);

const POLLUTION = [
  '{"__proto__":{"isAdmin":true,"polluted":1}}',
  '{"constructor":{"prototype":{"isAdmin":true,"polluted":1}}}',
  '{"__proto__":{"status":"completed"},"amount":"1.00"}',
];

type Json = Record<string, unknown>;

/** encodeURIComponent, except that a lone surrogate becomes its (invalid) three UTF-8-style bytes instead of throwing. */
function encode(value: string): string {
  return value.replace(/[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]|[^\ud800-\udfff]+/g, (part) => {
    const c = part.charCodeAt(0);
    if (part.length > 1 || c < 0xd800 || c > 0xdfff) return encodeURIComponent(part);
    return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
      .map((b) => `%${b.toString(16).toUpperCase()}`)
      .join("");
  });
}

/** Percent sequences sent as they are: malformed, NUL, overlong. (Dot segments are resolved by inject's URL parser.) */
const RAW_SEGMENTS = ["%ED%A0%80", "%FF", "%00", "%", "%zz", "a%2Fb", "%C0%AF", "%E2%80%AE"];

/** A well-formed body with one field replaced, removed or joined by a stranger; or a body of the wrong shape. */
function bodyArbitrary(valid: unknown): fc.Arbitrary<string> {
  const base = valid && typeof valid === "object" && !Array.isArray(valid) ? (valid as Json) : {};
  const keys = Object.keys(base);
  const mutated = keys.length
    ? fc
        .tuple(fc.constantFrom(...keys), fc.option(nastyValue, { nil: undefined }))
        .map(([key, value]) => JSON.stringify({ ...base, [key]: value }))
    : fc.constant("{}");
  return fc.oneof(
    mutated,
    mutated,
    fc.tuple(nastyString, nastyValue).map(([key, value]) => JSON.stringify({ ...base, [key]: value })),
    nastyValue.map((v) => JSON.stringify(v) ?? "null"),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.constant(JSON.stringify([base])),
    fc.constantFrom(...POLLUTION),
  );
}

function queryArbitrary(): fc.Arbitrary<string> {
  const key = fc.oneof(fc.constantFrom("after", "cursor", "limit", "__proto__", "after[]"), nastyString);
  const value = fc.oneof(
    nastyString,
    fc.integer().map(String),
    fc.constantFrom("0", "-1", "1.5", "NaN", "1e3", "999999999999999999999"),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 4 })
    .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&"));
}

const roleFor = (route: RouteCase): Role =>
  route.access === "admin" ? "admin" : route.access === "user" ? "user" : "signedOut";

/** Route pattern with every `:param` (or `*`) replaced by the generated segment. */
function withParams(pattern: string, segment: string): string {
  return pattern.replace(/:[A-Za-z]+|\*$/g, segment || "%20");
}

const segmentArbitrary = fc.oneof(nastyString.map(encode), fc.constantFrom(...RAW_SEGMENTS));

interface FuzzRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

async function expectSafe(key: string, route: RouteCase, request: FuzzRequest) {
  const auth = await signedInAs(w, roleFor(route));
  const before = await snapshot(w, route.refusalWrites);
  const res = await w.t.app.inject({ ...request, headers: { ...request.headers, ...auth } });
  const context = `${key} ${JSON.stringify(request).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, context).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(res.headers["content-type"], context).toMatch(/^application\/json/);
    expect(typeof res.json().message, context).toBe("string");
    expectReasonForFlags(res.statusCode, res.json(), context, key);
    expect(await snapshot(w, route.refusalWrites), context).toEqual(before);
  }
}

describe("fuzzing every route that takes input", () => {
  for (const [key, route] of Object.entries(CATALOGUE)) {
    if (!route.input) continue;
    const [method, pattern] = key.split(" ") as [string, string];

    if (route.input.body) {
      it(`${key}: bodies`, async () => {
        const base = await route.build(w, roleFor(route));
        await fc.assert(
          fc.asyncProperty(bodyArbitrary(base.payload), async (payload) => {
            await expectSafe(key, route, {
              method: method as "POST",
              url: base.url,
              headers: { "content-type": "application/json" },
              payload,
            });
          }),
          { seed: SEED, numRuns: RUNS },
        );
      });
    }

    if (route.input.query) {
      it(`${key}: query strings`, async () => {
        const base = await route.build(w, roleFor(route));
        const path = base.url.split("?")[0]!;
        await fc.assert(
          fc.asyncProperty(queryArbitrary(), async (query) => {
            await expectSafe(key, route, { method: method as "GET", url: `${path}?${query}` });
          }),
          { seed: SEED, numRuns: RUNS },
        );
      });
    }

    if (route.input.params) {
      it(`${key}: path parameters`, async () => {
        const base = await route.build(w, roleFor(route));
        await fc.assert(
          fc.asyncProperty(segmentArbitrary, async (segment) => {
            await expectSafe(key, route, {
              method: method as "GET",
              url: withParams(pattern, segment),
              ...(base.payload !== undefined ? { payload: base.payload as string | Buffer } : {}),
              ...(base.headers ? { headers: base.headers as Record<string, string> } : {}),
            });
          }),
          { seed: SEED, numRuns: RUNS },
        );
      });
    }
  }

  it("answers 400, never 500, to a NUL byte in any field of any body", async () => {
    for (const [key, route] of Object.entries(CATALOGUE)) {
      if (!route.input?.body) continue;
      const [method] = key.split(" ") as [string];
      const base = await route.build(w, roleFor(route));
      const valid = (base.payload ?? {}) as Json;
      for (const field of Object.keys(valid)) {
        if (typeof valid[field] !== "string") continue;
        await expectSafe(key, route, {
          method: method as "POST",
          url: base.url,
          headers: { "content-type": "application/json" },
          payload: JSON.stringify({ ...valid, [field]: `${valid[field]}\u0000` }),
        });
      }
    }
  }, 300_000);

  // Two table snapshots per request over every route with a body or query: a generous limit on a loaded machine.
  it("refuses a lone UTF-16 surrogate in any text field of any body or query with 400, writing nothing", async () => {
    const lone = ["\ud800", "x\udfff", "\udc00\ud800"];
    for (const [key, route] of Object.entries(CATALOGUE)) {
      if (!route.input?.body && !route.input?.query) continue;
      const [method] = key.split(" ") as [string];
      const base = await route.build(w, roleFor(route));
      const valid = (base.payload ?? {}) as Json;
      const requests: FuzzRequest[] = [];
      for (const field of route.input.body ? Object.keys(valid) : []) {
        if (typeof valid[field] !== "string") continue;
        for (const bad of lone) {
          requests.push({
            method: method as "POST",
            url: base.url,
            // Money routes store the request under its Idempotency-Key (a JSON column): the case that gave 500.
            headers: {
              "content-type": "application/json",
              "idempotency-key": `surrogate-${field}-${bad.length}`,
            },
            payload: JSON.stringify({ ...valid, [field]: `${valid[field]}${bad}` }),
          });
        }
      }
      if (route.input.query) {
        const separator = base.url.includes("?") ? "&" : "?";
        requests.push({ method: method as "GET", url: `${base.url}${separator}search=%ED%A0%80` });
      }
      for (const request of requests) {
        await expectSafe(key, route, request);
        const auth = await signedInAs(w, roleFor(route));
        const res = await w.t.app.inject({ ...request, headers: { ...request.headers, ...auth } });
        if (request.payload) expect(res.statusCode, `${key} ${request.payload}`).toBe(400);
      }
    }
  }, 300_000);

  it("refuses negative, fractional-cent, non-finite and odd-looking amounts on every money route, writing nothing", async () => {
    const amounts: unknown[] = [
      "-1",
      "-0.01",
      "0.001",
      "1.005",
      "NaN",
      "Infinity",
      "-Infinity",
      "1e309",
      "",
      " ",
      "0x10",
      "１２",
      "1.2.3",
      "--1",
      -5,
      0.001,
      1.005,
      null,
      [],
      {},
      true,
    ];
    const moneyRoutes: [string, string][] = [
      ["POST /api/transfer/request", "amount"],
      ["POST /api/admin/incoming-payments", "amount"],
      ["POST /api/admin/transactions", "amount"],
      ["PUT /api/admin/users/:userId/balance", "accountBalance"],
      ["POST /api/admin/send-payment-notification", "amount"],
    ];
    for (const [key, field] of moneyRoutes) {
      const route = CATALOGUE[key]!;
      const base = await route.build(w, roleFor(route));
      for (const amount of [...amounts, ...(key.includes("balance") ? [] : ["0", 0])]) {
        const auth = await signedInAs(w, roleFor(route));
        const before = await snapshot(w);
        const res = await w.t.app.inject({
          method: key.split(" ")[0] as "POST",
          url: base.url,
          headers: auth,
          payload: { ...(base.payload as Json), [field]: amount },
        });
        const context = `${key} ${field}=${JSON.stringify(amount)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, context).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, context).toBeLessThan(500);
        expect(typeof res.json().message, context).toBe("string");
        expect(await snapshot(w), context).toEqual(before);
      }
    }
  }, 300_000);

  it("left no polluted prototype and no customer turned admin", async () => {
    expect(({} as Json).polluted).toBeUndefined();
    expect(({} as Json).isAdmin).toBeUndefined();
    const res = await w.t.app.inject({
      method: "GET",
      url: "/api/admin/stats",
      headers: await signedInAs(w, "user"),
    });
    expect(res.statusCode).toBe(403);
    await expectLedgerOk(w);
  });
});

describe("body size", () => {
  it("answers 413 JSON to a body over 1 MiB, and writes nothing", async () => {
    const headers = { ...(await signedInAs(w, "user")), "content-type": "application/json" };
    const before = await snapshot(w);
    const res = await w.t.app.inject({
      method: "POST",
      url: "/api/chat/send",
      headers,
      payload: JSON.stringify({ message: "x".repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe("Request body is too large");
    expect(await snapshot(w)).toEqual(before);
  });

  it("answers 400, not 500, to a huge string field just under the limit", async () => {
    const headers = { ...(await signedInAs(w, "user")), "content-type": "application/json" };
    const before = await snapshot(w);
    for (const [url, field] of [
      ["/api/chat/send", "message"],
      ["/api/auth/login", "email"],
      ["/api/transfer/request", "recipientName"],
    ] as const) {
      const res = await w.t.app.inject({
        method: "POST",
        url,
        headers,
        payload: JSON.stringify({ [field]: "x".repeat(1024 * 1024 - 100) }),
      });
      expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(400);
      expect(typeof res.json().message).toBe("string");
    }
    expect(await snapshot(w)).toEqual(before);
  });
});
