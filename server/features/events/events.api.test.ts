import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STREAMS_PER_SESSION } from "@/contract/events";
import { type App, buildApp } from "@/server/app";
import { loadConfig } from "@/server/config";
import { createPgDatabase, type Database } from "@/server/db/client";
import { EVENTS_BACKGROUND_READS, EventHub } from "@/server/features/events/event-hub";
import { hashSessionToken } from "@/server/lib/session";
import { tokenOf } from "@/tests/support/cluster";
import { type EventStreamClient, openEventStream, topicsOf } from "@/tests/support/event-stream";
import { createApprovedCustomer, createFundedCustomer, expectLedgerClean } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp();
const admin = setUpAdminUser(t);
let baseUrl: string;
const open: EventStreamClient[] = [];

beforeAll(async () => {
  baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => {
  for (const s of open) s.close();
});

async function stream(cookie: string, lastEventId?: string, url = baseUrl) {
  const s = await openEventStream(url, { cookie, ...(lastEventId ? { "last-event-id": lastEventId } : {}) });
  open.push(s);
  return s;
}

/** A support reply written straight to the table: the trigger, not the route, makes the notice. */
const supportReply = (userId: string, message = "Hello from support") =>
  t.database.query("insert into chat_messages (user_id, is_from_user, message) values ($1, false, $2)", [
    userId,
    message,
  ]);

const readyOf = async (s: EventStreamClient) => {
  const ready = await s.next((e) => e.event === "ready");
  return { id: ready.id!, resumed: (JSON.parse(ready.data) as { resumed: boolean }).resumed };
};

describe("GET /api/events", () => {
  it("refuses a signed-out request", async () => {
    const s = await stream("sid=not-a-session-token-at-all-000000");
    expect(s.status).toBe(401);
  });

  it("pushes the owner's change with an id, and never another customer's", async () => {
    const alice = await createVerifiedUser(t.database);
    const bob = await createVerifiedUser(t.database);
    const a = await stream(alice.cookie);
    const b = await stream(bob.cookie);
    expect(a.status).toBe(200);
    const start = await readyOf(a);
    expect(start.resumed).toBe(false);
    await readyOf(b);

    await supportReply(alice.user.id);
    const change = await a.next((e) => e.event === "change");
    expect(topicsOf(change)).toEqual(["chat"]);
    expect(Number(change.id)).toBe(Number(start.id) + 1);

    await new Promise((r) => setTimeout(r, 300));
    expect(b.events.filter((e) => e.event === "change")).toEqual([]);
  });

  it("resumes from Last-Event-ID without a gap after a reconnect", async () => {
    const alice = await createVerifiedUser(t.database);
    const first = await stream(alice.cookie);
    const { id } = await readyOf(first);
    first.close();
    for (let i = 0; i < 3; i++) await supportReply(alice.user.id, `message ${i}`);

    const again = await stream(alice.cookie, id);
    expect((await readyOf(again)).resumed).toBe(true);
    await again.next((e) => e.event === "change" && Number(e.id) === Number(id) + 3);
    const ids = again.events.filter((e) => e.event === "change").map((e) => Number(e.id));
    expect(ids).toEqual([Number(id) + 1, Number(id) + 2, Number(id) + 3]);
  });

  it("merges one transaction's changes into one notice", async () => {
    const alice = await createVerifiedUser(t.database);
    const s = await stream(alice.cookie);
    const { id } = await readyOf(s);
    await t.database.db.transaction(async (tx) => {
      await tx.execute(
        sql`insert into chat_messages (user_id, is_from_user, message) values (${alice.user.id}, false, 'one')`,
      );
      await tx.execute(
        sql`insert into notifications (user_id, kind, title, body) values (${alice.user.id}, 'chat_reply', 'Reply', '')`,
      );
    });
    const change = await s.next((e) => e.event === "change");
    expect(Number(change.id)).toBe(Number(id) + 1);
    expect(topicsOf(change)).toEqual(["chat", "notifications"]);
  });

  it("names the latest notice, and a first stream started from it replays what followed", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/events/position" })).statusCode).toBe(401);
    const alice = await createVerifiedUser(t.database);
    await supportReply(alice.user.id, "before the page");
    const position = await t.app.inject({
      method: "GET",
      url: "/api/events/position",
      headers: { cookie: alice.cookie },
    });
    expect(position.statusCode).toBe(200);
    const { lastId } = position.json() as { lastId: string };
    expect(Number(lastId)).toBeGreaterThan(0);
    // Written while the page was on its way: the stream that starts from the page's number still says so.
    await supportReply(alice.user.id, "while the page loads");
    const s = await openEventStream(baseUrl, { cookie: alice.cookie }, `/api/events?from=${lastId}`);
    open.push(s);
    expect(await readyOf(s)).toEqual({ id: lastId, resumed: true });
    const change = await s.next((e) => e.event === "change");
    expect(Number(change.id)).toBe(Number(lastId) + 1);
    expect(topicsOf(change)).toEqual(["chat"]);
    // Not a number this log gave out: a fresh start, and the page re-reads everything.
    const odd = await openEventStream(baseUrl, { cookie: alice.cookie }, "/api/events?from=not-a-number");
    open.push(odd);
    expect((await readyOf(odd)).resumed).toBe(false);
  });

  it("forgets a payee's remembered balance when another customer pays them, before the notice goes out", async () => {
    const payer = await createFundedCustomer(t, admin, "20.00");
    const payee = await createApprovedCustomer(t.database);
    const s = await stream(payee.cookie);
    await readyOf(s);
    const summary = (etag?: string) =>
      t.app.inject({
        method: "GET",
        url: "/api/account/summary",
        headers: { cookie: payee.cookie, ...(etag ? { "if-none-match": etag } : {}) },
      });
    const first = await summary();
    const etag = String(first.headers.etag);
    expect((await summary(etag)).statusCode).toBe(304);
    // The payer's request forgets only the payer's polls: the notice is what tells this instance the payee's
    // remembered answer is stale. By the time the payee's browser hears it, the answer must be gone.
    const paid = await t.app.inject({
      method: "POST",
      url: "/api/transfer/tag-payments",
      headers: { cookie: payer.cookie, "idempotency-key": "events-poll-memory" },
      payload: { tag: `$${payee.user.pillarTag}`, amount: "5.00" },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    await s.next((e) => e.event === "change" && topicsOf(e).includes("summary"));
    const after = await summary(etag);
    expect(after.statusCode).toBe(200);
    expect(after.json().availableBalance).toBe("$5.00");
    await expectLedgerClean(t.database);
  });

  it("answers resumed: false when the client's id is not one this log gave out", async () => {
    const alice = await createVerifiedUser(t.database);
    const s = await stream(alice.cookie, "987654");
    expect((await readyOf(s)).resumed).toBe(false);
  });

  it("ends the stream at once when its session is revoked", async () => {
    const alice = await createVerifiedUser(t.database);
    const s = await stream(alice.cookie);
    await readyOf(s);
    await t.database.query("delete from sessions where user_id = $1", [alice.user.id]);
    const end = await s.next((e) => e.event === "end", 2_000);
    expect(JSON.parse(end.data)).toEqual({ reason: "signed_out" });
    await s.ended;
    const after = await stream(alice.cookie);
    expect(after.status).toBe(401);
  });

  it("ends the stream at once when the account is frozen", async () => {
    const alice = await createVerifiedUser(t.database);
    const s = await stream(alice.cookie);
    await readyOf(s);
    await t.database.query("update users set frozen_at = now() where id = $1", [alice.user.id]);
    const end = await s.next((e) => e.event === "end", 2_000);
    expect(JSON.parse(end.data)).toEqual({ reason: "frozen" });
    await s.ended;
  });

  it(`holds at most ${STREAMS_PER_SESSION} streams per session`, async () => {
    const alice = await createVerifiedUser(t.database);
    const streams = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i++) streams.push(await stream(alice.cookie));
    for (const s of streams) expect(s.status).toBe(200);
    const over = await stream(alice.cookie);
    expect(over.status).toBe(429);
    streams[0]!.close();
    await new Promise((r) => setTimeout(r, 100));
    expect((await stream(alice.cookie)).status).toBe(200);
  });
});

describe("across two instances on one PostgreSQL", () => {
  let second: { app: App; database: Database; url: string } | undefined;

  beforeAll(async () => {
    if (t.database.kind !== "pg" || !t.database.url) return;
    const database = createPgDatabase(t.database.url, 4);
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: t.dataDir, LOG_LEVEL: "silent" });
    const app = await buildApp({ config, database }, { logger: false });
    second = { app, database, url: await app.listen({ port: 0, host: "127.0.0.1" }) };
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await second?.app.close();
    await second?.database.close();
  });

  it("delivers a change written through one instance to a stream on the other", async (ctx) => {
    if (!second) return ctx.skip();
    const alice = await createVerifiedUser(t.database);
    const onSecond = await stream(alice.cookie, undefined, second.url);
    await readyOf(onSecond);
    const sent = await t.app.inject({
      method: "POST",
      url: "/api/chat/send",
      headers: { cookie: alice.cookie },
      payload: { message: "Is my transfer on its way?" },
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const change = await onSecond.next((e) => e.event === "change", 2_000);
    expect(topicsOf(change)).toContain("chat");
  });
});

describe("the heartbeat", () => {
  /** Its own hub with a 1 s heartbeat (25 slots: a turn every 40 ms), behind a bare HTTP server, for one customer. */
  async function hubFor(recheckMs: number) {
    const hub = new EventHub(
      t.database,
      t.app.jobs.hub,
      t.app.log,
      { perSession: 1_000, perUser: 1_000, total: 10_000 },
      () => {},
      {
        heartbeatMs: 1_000,
        recheckMs,
      },
    );
    const alice = await createVerifiedUser(t.database);
    const token = tokenOf(alice.cookie);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.flushHeaders();
      void hub.open({
        userId: alice.user.id,
        token,
        idHash: hashSessionToken(token),
        frozenAt: null,
        raw: res,
        lastEventId: undefined,
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await hub.start();
    return { hub, alice, url, server };
  }

  it("pings every stream once a period, a slot of streams at a time instead of all at once", async () => {
    const { hub, url, server } = await hubFor(60_000);
    const clients: EventStreamClient[] = [];
    try {
      // 50 streams opened at once, as a step of dashboards (or a reconnect wave after a deploy) opens them.
      for (let i = 0; i < 50; i++) clients.push(await openEventStream(url, {}, "/"));
      await Promise.all(clients.map((c) => c.next((e) => e.event === "ready")));
      await new Promise((r) => setTimeout(r, 1_600));
      for (const c of clients) expect(c.comments.length).toBeGreaterThanOrEqual(1);
      // Two streams a turn: no 40 ms holds more than a few first pings (all 50 came in one burst before).
      const firsts = clients.map((c) => c.comments[0]!).sort((a, b) => a - b);
      const densest = Math.max(...firsts.map((at) => firsts.filter((x) => x >= at && x < at + 40).length));
      expect(densest).toBeLessThanOrEqual(6);
      expect(firsts.at(-1)! - firsts[0]!).toBeGreaterThanOrEqual(500);
    } finally {
      for (const c of clients) c.close();
      await hub.close();
      await new Promise((r) => server.close(r));
    }
  });

  it(`re-checks streams ${EVENTS_BACKGROUND_READS} at a time, and still ends every one whose session is revoked`, async () => {
    // Every turn re-reads its slot's streams: 100 streams put 4 in each slot, all due at once.
    const { hub, alice, url, server } = await hubFor(0);
    const clients: EventStreamClient[] = [];
    try {
      for (let i = 0; i < 100; i++) clients.push(await openEventStream(url, {}, "/"));
      await Promise.all(clients.map((c) => c.next((e) => e.event === "ready")));
      await new Promise((r) => setTimeout(r, 1_200));
      expect(hub.backgroundStats.done).toBeGreaterThanOrEqual(100);
      expect(hub.backgroundStats.peak).toBe(EVENTS_BACKGROUND_READS);
      await t.database.query("delete from sessions where user_id = $1", [alice.user.id]);
      const ends = await Promise.all(clients.map((c) => c.next((e) => e.event === "end", 5_000)));
      for (const end of ends) expect(JSON.parse(end.data)).toEqual({ reason: "signed_out" });
    } finally {
      for (const c of clients) c.close();
      await hub.close();
      await new Promise((r) => server.close(r));
    }
  });
});
