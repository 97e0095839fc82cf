// What `npm run bench:scale` measures: every customer and staff read and write as a named scenario, one HTTP
// request per sample, against the running app. A new route is one row here.
import { randomUUID } from "node:crypto";
import { WHALE_ADDRESSES } from "@/scripts/bench/scale/seed";

export interface SeededCustomer {
  n: number;
  id: string;
  cookie: string;
  depositAddress: string;
  /** The keyset cursor of the oldest page of their history (walked once at sign-in). */
  deepCursor: string | null;
  /** A month 24 months back, for its statement. */
  oldMonth: string;
}

export interface ScenarioContext {
  baseUrl: string;
  customers: SeededCustomer[];
  staffCookie: string;
  /** Customers the staff look up (not the signed-in ones): number, id, deposit address. */
  lookups: { n: number; id: string; firstName: string; lastName: string; depositAddress: string }[];
  openCaseIds: string[];
  /** Plain customers to pay by $tag. */
  payees: number[];
}

export type Goal = "customer" | "search" | "none";

export interface Scenario {
  name: string;
  who: "customer" | "staff";
  kind: "read" | "write";
  /** customer: p99 at the largest step ≤ 1.5 × at the smallest; search: p99 ≤ 100 ms at every step. */
  goal: Goal;
  /** The request for sample `i` (spread over the customers / lookups by i). */
  request(ctx: ScenarioContext, i: number): { method?: string; path: string; body?: unknown; cookie: string };
}

const pick = <T>(list: T[], i: number): T => list[i % list.length]!;
const cust = (ctx: ScenarioContext, i: number) => pick(ctx.customers, i);
const staffGet = (path: string) => (ctx: ScenarioContext) => ({ path, cookie: ctx.staffCookie });
const q = (value: string) => encodeURIComponent(value);

export const SCENARIOS: Scenario[] = [
  {
    name: "customer: dashboard summary",
    who: "customer",
    kind: "read",
    goal: "customer",
    request: (ctx, i) => ({ path: "/api/account/summary", cookie: cust(ctx, i).cookie }),
  },
  {
    name: "customer: recent transactions",
    who: "customer",
    kind: "read",
    goal: "customer",
    request: (ctx, i) => ({ path: "/api/transactions/recent", cookie: cust(ctx, i).cookie }),
  },
  {
    name: "customer: history, first page",
    who: "customer",
    kind: "read",
    goal: "customer",
    request: (ctx, i) => ({ path: "/api/transactions?limit=25", cookie: cust(ctx, i).cookie }),
  },
  {
    name: "customer: history, oldest page (keyset cursor)",
    who: "customer",
    kind: "read",
    goal: "customer",
    request: (ctx, i) => {
      const c = cust(ctx, i);
      return {
        path: `/api/transactions?limit=25${c.deepCursor ? `&cursor=${q(c.deepCursor)}` : ""}`,
        cookie: c.cookie,
      };
    },
  },
  {
    name: "customer: statement list",
    who: "customer",
    kind: "read",
    goal: "customer",
    request: (ctx, i) => ({ path: "/api/statements", cookie: cust(ctx, i).cookie }),
  },
  {
    name: "customer: statement PDF, 2 years back",
    who: "customer",
    kind: "read",
    goal: "customer",
    request: (ctx, i) => ({
      path: `/api/statements/${cust(ctx, i).oldMonth}.pdf`,
      cookie: cust(ctx, i).cookie,
    }),
  },
  {
    name: "customer: CSV export (whole history)",
    who: "customer",
    kind: "read",
    goal: "customer",
    request: (ctx, i) => ({ path: "/api/transactions/export.csv", cookie: cust(ctx, i).cookie }),
  },
  {
    name: "customer: notifications",
    who: "customer",
    kind: "read",
    goal: "customer",
    request: (ctx, i) => ({ path: "/api/notifications", cookie: cust(ctx, i).cookie }),
  },
  {
    name: "customer: access to my data",
    who: "customer",
    kind: "read",
    goal: "customer",
    request: (ctx, i) => ({ path: "/api/account/data-access", cookie: cust(ctx, i).cookie }),
  },
  {
    name: "customer: USDC transfer request (to a whale address)",
    who: "customer",
    kind: "write",
    goal: "customer",
    request: (ctx, i) => ({
      method: "POST",
      path: "/api/transfer/request",
      cookie: cust(ctx, i).cookie,
      body: {
        amount: "5.00",
        recipientName: "Scale recipient",
        purpose: "Scale bench",
        paymentMethod: "crypto",
        cryptoAddress: pick(WHALE_ADDRESSES, i),
      },
    }),
  },
  {
    name: "customer: pay by $tag",
    who: "customer",
    kind: "write",
    goal: "customer",
    request: (ctx, i) => ({
      method: "POST",
      path: "/api/transfer/tag-payments",
      cookie: cust(ctx, i).cookie,
      body: { tag: `scale_${pick(ctx.payees, i)}`, amount: "1.00" },
    }),
  },
  {
    name: "staff: user list, first page",
    who: "staff",
    kind: "read",
    goal: "none",
    request: staffGet("/api/admin/users?limit=25"),
  },
  {
    name: "staff: search by name fragment",
    who: "staff",
    kind: "read",
    goal: "search",
    request: (ctx, i) => ({
      path: `/api/admin/users?q=${q(pick(ctx.lookups, i).lastName.slice(1, 6).toLowerCase())}`,
      cookie: ctx.staffCookie,
    }),
  },
  {
    name: "staff: search by e-mail",
    who: "staff",
    kind: "read",
    goal: "search",
    request: (ctx, i) => ({
      path: `/api/admin/users?q=${q(`scale-${pick(ctx.lookups, i).n}@scale.test`)}`,
      cookie: ctx.staffCookie,
    }),
  },
  {
    name: "staff: search by $tag",
    who: "staff",
    kind: "read",
    goal: "search",
    request: (ctx, i) => ({
      path: `/api/admin/users?q=${q(`scale_${pick(ctx.lookups, i).n}`)}`,
      cookie: ctx.staffCookie,
    }),
  },
  {
    name: "staff: search by last 4 of account number",
    who: "staff",
    kind: "read",
    goal: "search",
    request: (ctx, i) => ({
      path: `/api/admin/users?q=${String(300_000_000 + pick(ctx.lookups, i).n).slice(-4)}`,
      cookie: ctx.staffCookie,
    }),
  },
  {
    name: "staff: search by deposit address",
    who: "staff",
    kind: "read",
    goal: "search",
    request: (ctx, i) => ({
      path: `/api/admin/users?q=${q(pick(ctx.lookups, i).depositAddress)}`,
      cookie: ctx.staffCookie,
    }),
  },
  {
    // Decision 067: the e-mail names one customer, whose transactions come by the (user, time) index.
    name: "staff: transactions searched by customer e-mail",
    who: "staff",
    kind: "read",
    goal: "search",
    request: (ctx, i) => ({
      path: `/api/admin/transactions?status=all&q=${q(`scale-${pick(ctx.lookups, i).n}@scale.test`)}`,
      cookie: ctx.staffCookie,
    }),
  },
  {
    // Decision 067: text no customer has and no row holds: one bounded stretch of rows, a cursor to go on.
    name: "staff: transactions searched by text nobody has",
    who: "staff",
    kind: "read",
    goal: "search",
    request: (ctx, i) => ({
      path: `/api/admin/transactions?status=all&q=${q(`zqx${i}`)}`,
      cookie: ctx.staffCookie,
    }),
  },
  {
    name: "staff: support inbox (conversations)",
    who: "staff",
    kind: "read",
    goal: "none",
    request: staffGet("/api/admin/chats"),
  },
  {
    name: "staff: customer detail",
    who: "staff",
    kind: "read",
    goal: "none",
    request: (ctx, i) => ({ path: `/api/admin/users/${pick(ctx.lookups, i).id}`, cookie: ctx.staffCookie }),
  },
  {
    name: "staff: KYC queue (pending)",
    who: "staff",
    kind: "read",
    goal: "none",
    request: staffGet("/api/admin/kyc-applications?status=pending"),
  },
  {
    name: "staff: approvals",
    who: "staff",
    kind: "read",
    goal: "none",
    request: staffGet("/api/admin/approvals"),
  },
  {
    name: "staff: transfer requests (pending)",
    who: "staff",
    kind: "read",
    goal: "none",
    request: staffGet("/api/admin/transfer-requests?status=pending"),
  },
  {
    name: "staff: audit search by customer",
    who: "staff",
    kind: "read",
    goal: "none",
    request: (ctx, i) => ({
      path: `/api/admin/audit?customer=${q(`scale-${pick(ctx.lookups, i).n}@scale.test`)}`,
      cookie: ctx.staffCookie,
    }),
  },
  {
    name: "staff: audit search by action (customer.*)",
    who: "staff",
    kind: "read",
    goal: "none",
    request: staffGet(`/api/admin/audit?action=${q("customer.*")}`),
  },
  {
    name: "staff: compliance cases (open)",
    who: "staff",
    kind: "read",
    goal: "none",
    request: staffGet("/api/admin/compliance/cases?status=open"),
  },
  {
    name: "staff: compliance case detail",
    who: "staff",
    kind: "read",
    goal: "none",
    request: (ctx, i) => ({
      path: `/api/admin/compliance/cases/${pick(ctx.openCaseIds, i)}`,
      cookie: ctx.staffCookie,
    }),
  },
  {
    name: "staff: Settlement",
    who: "staff",
    kind: "read",
    goal: "none",
    request: staffGet("/api/admin/settlement"),
  },
  {
    name: "staff: stats (back-office analytics)",
    who: "staff",
    kind: "read",
    goal: "none",
    request: staffGet("/api/admin/stats"),
  },
  {
    name: "staff: chat reply",
    who: "staff",
    kind: "write",
    goal: "none",
    request: (ctx, i) => ({
      method: "POST",
      path: `/api/admin/chats/${pick(ctx.lookups, i).id}/reply`,
      cookie: ctx.staffCookie,
      body: { message: `Scale bench reply ${i}` },
    }),
  },
];

/** One request: its latency in ms and whether it answered 2xx/304 (with the body of the first failure). */
export async function timeRequest(
  baseUrl: string,
  req: ReturnType<Scenario["request"]>,
): Promise<{ ms: number; ok: boolean; status: number; body?: string }> {
  const headers: Record<string, string> = { cookie: req.cookie };
  if (req.body !== undefined) {
    headers["content-type"] = "application/json";
    headers["idempotency-key"] = randomUUID();
  }
  const start = performance.now();
  const res = await fetch(`${baseUrl}${req.path}`, {
    method: req.method ?? "GET",
    headers,
    ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
  });
  const bytes = await res.arrayBuffer();
  const ms = performance.now() - start;
  const ok = (res.status >= 200 && res.status < 300) || res.status === 304;
  return {
    ms,
    ok,
    status: res.status,
    ...(ok ? {} : { body: Buffer.from(bytes).toString("utf8").slice(0, 300) }),
  };
}
