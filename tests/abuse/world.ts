import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { expect } from "vitest";
import { reasonsOf } from "@/contract/endpoint";
import { type ContractKey, ENDPOINTS } from "@/contract/endpoints";
import { ERROR_REASONS, isErrorReason } from "@/contract/error-reasons";
import { errorBodyByReason } from "@/contract/errors";
import type { StaffRole } from "@/contract/staff";
import { queryRowsUnchecked } from "@/server/db/client";
import { verifyLedger } from "@/server/lib/ledger";
import { createSession } from "@/server/lib/session";
import { PNG, uploadFile } from "@/tests/support/files";
import { createApprovedCustomer, ETH_ADDRESS, fundCustomer } from "@/tests/support/money";
import { createTestApp, type TestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser, type SignedInUser } from "@/tests/support/users";

/**
 * The abuse tests' shared fixture: the real app, an admin, and two approved, funded customers. Customer A owns
 * one of everything that has an id (transfer, KYC application, account request, upload, chat, incoming payment,
 * credit); customer B is the attacker who tries those ids.
 */
export interface World {
  t: TestApp;
  /** Every "METHOD url" the app registered, in registration order. */
  routes: string[];
  /** The statuses each registered "METHOD url" declares in its `schema.response`. */
  responseStatuses: Record<string, string[]>;
  /** An owner: every staff role's rights. */
  admin: SignedInUser;
  /** One staff member per role below owner, each holding that role alone. */
  staff: Record<StaffColumn, SignedInUser>;
  a: SignedInUser;
  b: SignedInUser;
  ids: {
    transferId: string;
    kycId: string;
    accountRequestId: string;
    incomingPaymentId: string;
    transactionId: string;
    objectPath: string;
    /** A's still unused upload URL (local back end: /api/objects/upload/<token>). */
    uploadURL: string;
    /** Path of an upload A asked for and then filled, but never attached to anything. */
    spareObjectPath: string;
    /** One of A's saved recipients. */
    recipientId: string;
  };
}

export async function createWorld(env: Record<string, string> = {}): Promise<World> {
  const routes: string[] = [];
  const responseStatuses: Record<string, string[]> = {};
  const t = await createTestApp(
    { RATE_LIMIT_SCALE: "1000", ...env },
    {
      // No built SPA, whether or not dist/web exists: its static files would register a route each.
      webDir: path.join(os.tmpdir(), "pillar-abuse-no-web"),
      // What follows a money movement's commit (the transfer's mail and link) runs only when a snapshot drains it.
      jobs: { consumerEveryMs: 3_600_000, consumerWakeDelayMs: 3_600_000 },
      onRoute: (route) => {
        const response = (route as { schema?: { response?: Record<string, unknown> } }).schema?.response;
        for (const method of [route.method].flat()) {
          routes.push(`${method} ${route.url}`);
          responseStatuses[`${method} ${route.url}`] = Object.keys(response ?? {});
        }
      },
    },
  );
  const admin = await createAdminUser(t.database);
  const staff = {} as Record<StaffColumn, SignedInUser>;
  for (const role of STAFF_COLUMNS)
    staff[role] = await createVerifiedUser(t.database, { staffRoles: [role] });
  const a = await createApprovedCustomer(t.database);
  const b = await createApprovedCustomer(t.database);
  await fundCustomer(t, admin, a.user.id, "5000.00");
  await fundCustomer(t, admin, b.user.id, "5000.00");
  // Both hold savings (decision 068): opening again is a stable refusal, and a goal has an account to go on.
  for (const customer of [a, b]) {
    const savings = await t.app.inject({
      method: "POST",
      url: "/api/savings",
      headers: { cookie: customer.cookie },
    });
    expect(savings.statusCode, savings.body).toBe(201);
  }

  const transfer = await t.app.inject({
    method: "POST",
    url: "/api/transfer/request",
    headers: { cookie: a.cookie },
    payload: {
      amount: "10.00",
      recipientName: "Grace Hopper",
      purpose: "Rent",
      paymentMethod: "crypto",
      cryptoAddress: ETH_ADDRESS,
    },
  });
  expect(transfer.statusCode, transfer.body).toBe(201);

  const chat = await t.app.inject({
    method: "POST",
    url: "/api/chat/send",
    headers: { cookie: a.cookie },
    payload: { message: "Hello, support" },
  });
  expect(chat.statusCode, chat.body).toBeLessThan(300);

  const upload = await uploadFile(t.app, a.cookie, PNG);
  expect(upload.putStatus, upload.putBody).toBe(200);
  const spare = await uploadFile(t.app, a.cookie, PNG);
  const pending = await t.app.inject({
    method: "POST",
    url: "/api/objects/upload",
    headers: { cookie: a.cookie },
  });
  const first = async (table: string) => {
    const found = await rows<{ id: string }>(
      t,
      `select id from ${table} where user_id = '${a.user.id}' order by created_at limit 1`,
    );
    expect(found, table).toHaveLength(1);
    return found[0]!.id;
  };
  expect(await rows(t, "select id from chat_messages")).toHaveLength(1);
  expect((await rows(t, "select id from uploads")).length).toBe(3);
  const recipient = await t.app.inject({
    method: "POST",
    url: "/api/recipients",
    headers: { cookie: a.cookie },
    payload: { name: "Grace Hopper", address: ETH_ADDRESS },
  });
  expect(recipient.statusCode, recipient.body).toBe(201);
  return {
    t,
    routes,
    responseStatuses,
    admin,
    staff,
    a,
    b,
    ids: {
      transferId: await first("transfer_requests"),
      kycId: await first("kyc_applications"),
      accountRequestId: await first("account_requests"),
      incomingPaymentId: await first("incoming_payments"),
      transactionId: await first("transactions"),
      objectPath: upload.objectPath,
      uploadURL: (pending.json() as { uploadURL: string }).uploadURL,
      spareObjectPath: spare.objectPath,
      recipientId: (recipient.json() as { recipient: { id: string } }).recipient.id,
    },
  };
}

/**
 * Who calls: signed out, customer A (owner of every id), customer B (the IDOR attacker), one staff member per
 * role below owner, and "admin", an owner (every role). The staff columns' statuses come from ADMIN_ROUTE_ROLES
 * (see expectedStatus in catalogue.ts).
 */
export const STAFF_COLUMNS = ["support", "compliance", "finance"] as const satisfies readonly StaffRole[];
export type StaffColumn = (typeof STAFF_COLUMNS)[number];
export type BaseRole = "signedOut" | "user" | "otherUser" | "admin";
export type Role = BaseRole | StaffColumn;
export const ROLES: Role[] = ["signedOut", "user", "otherUser", ...STAFF_COLUMNS, "admin"];

/** A new session for `who`, so routes that end sessions (logout, password change) never spoil the fixture. */
export async function freshCookie(w: World, who: SignedInUser): Promise<string> {
  const { token } = await createSession(w.t.database.db, {
    userId: who.user.id,
    userAgent: "abuse",
    ip: "127.0.0.1",
  });
  return `sid=${token}`;
}

/** The acting user for a role: "user" is A (the owner of the ids), "otherUser" is B. */
export function actor(w: World, role: Role): SignedInUser | null {
  if (role === "signedOut") return null;
  if (role === "user") return w.a;
  if (role === "otherUser") return w.b;
  if (role === "admin") return w.admin;
  return w.staff[role];
}

const TABLES = [
  "users",
  "sessions",
  "one_time_codes",
  "mail_outbox",
  "audit_log",
  "chat_conversations",
  "chat_messages",
  "uploads",
  "kyc_applications",
  "account_requests",
  "ledger_accounts",
  "journal_entries",
  "postings",
  "holds",
  "transactions",
  "transfer_requests",
  "incoming_payments",
  "idempotency_keys",
  "dashboard_content",
  "totp_factors",
  "recovery_codes",
  "passkeys",
  "auth_challenges",
  "known_devices",
  "freeze_links",
  "saved_recipients",
  "transfer_schedules",
  "schedule_runs",
  "savings_accounts",
  "savings_goals",
  "savings_moves",
  "savings_interest",
  "savings_statements",
] as const;
export type Table = (typeof TABLES)[number];

/** Raw SQL rows, on PostgreSQL and PGlite alike. */
export async function rows<T extends object = Record<string, unknown>>(
  t: TestApp,
  query: string,
): Promise<T[]> {
  return queryRowsUnchecked<T>(t.database.db, sql.raw(query));
}

/**
 * Columns that change with no request at all: a read may touch a session, and the mail worker delivers queued
 * mail in the background. A refusal that queued mail still shows as a new outbox row.
 */
const BACKGROUND_COLUMNS = ["last_seen_at", "status", "attempts", "next_attempt_at", "last_error", "sent_at"];

/**
 * The tables compared row by row, less their background columns: those a request may touch without a change
 * of its own, and uploads, whose link a refused PUT claims and gives back (receive-upload.ts): the row is as
 * it was, though written twice.
 */
const ROW_COMPARED: Partial<Record<Table, readonly string[]>> = {
  sessions: ["last_seen_at"],
  known_devices: ["last_seen_at"],
  mail_outbox: BACKGROUND_COLUMNS,
  uploads: [],
};

/**
 * What every table holds once the jobs room has caught up (a transfer's mail and link follow its commit), less the
 * background columns: equal snapshots mean nothing was written.
 */
export async function snapshot(w: World, except: readonly Table[] = []): Promise<Record<string, string>> {
  await w.t.app.jobs.drainConsumers();
  const parts = TABLES.filter((table) => !except.includes(table)).map((table) => {
    const dropped = ROW_COMPARED[table];
    if (!dropped) {
      // Any insert or update leaves a row version whose xmin is the newest transaction's, and any delete lowers
      // the count: equal (count, newest xmin) mean no row was written. One scan, where a digest of every row
      // sorted cost the abuse layer most of its time, and stricter (an update to the same values shows too).
      return `select '${table}' as name, count(*)::int as rows, coalesce(max(xmin::text::bigint), 0)::text as digest from "${table}" t`;
    }
    const row = dropped.length
      ? `(to_jsonb(t) - array[${dropped.map((c) => `'${c}'`).join(", ")}])::text`
      : "to_jsonb(t)::text";
    return `select '${table}' as name, count(*)::int as rows, md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) as digest from "${table}" t`;
  });
  const result = await rows<{ name: string; rows: number; digest: string }>(w.t, parts.join(" union all "));
  return Object.fromEntries(result.map((r) => [r.name, `${r.rows}:${r.digest}`]));
}

export async function expectLedgerOk(w: World) {
  const report = await verifyLedger(w.t.database.db);
  expect(report.problems).toEqual([]);
}

export async function signedInAs(w: World, role: Role): Promise<Record<string, string>> {
  const who = actor(w, role);
  return who ? { cookie: await freshCookie(w, who) } : {};
}

export type Request = Omit<InjectOptions, "method"> & { method: string; url: string };

/** Fresh extra users for routes that destroy their target (DELETE /api/admin/users/:userId). */
export async function victim(w: World) {
  return createVerifiedUser(w.t.database);
}

/** A fresh customer whose account "This wasn't me" froze (POST /api/admin/users/:userId/unfreeze lifts it). */
export async function frozenVictim(w: World) {
  const frozen = await createVerifiedUser(w.t.database);
  await w.t.database.query(
    "update users set frozen_at = now(), password_reset_required = true where id = $1",
    [frozen.user.id],
  );
  return frozen;
}

/**
 * Decision 023: an error body that carries a flag carries the reason that sets it, the reason's flags are all
 * there, and the answer has the reason's status.
 */
export function expectReasonForFlags(
  status: number,
  body: Record<string, unknown>,
  context: string,
  key?: string,
) {
  // Decision 075: the body is its reason's variant of the union, and a contract's endpoint declares the reason.
  if (status >= 400) expect(errorBodyByReason.safeParse(body).error, context).toBeUndefined();
  const endpoint = key === undefined ? undefined : ENDPOINTS[key as ContractKey];
  if (endpoint && typeof body.reason === "string") {
    expect(reasonsOf(endpoint), `${context}: ${key}'s contract lists ${body.reason}`).toContain(body.reason);
  }
  const flags = Object.keys(body).filter((name) => body[name] === true);
  if (flags.length === 0 && body.reason === undefined) return;
  expect(isErrorReason(body.reason), `${context}: reason ${String(body.reason)}`).toBe(true);
  const entry = ERROR_REASONS[body.reason as keyof typeof ERROR_REASONS];
  expect(status, context).toBe(entry.status);
  expect(body.code, context).toBe(entry.code);
  for (const flag of entry.flags) expect(body[flag], `${context}: ${flag}`).toBe(true);
}
