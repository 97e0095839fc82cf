import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashSessionToken, SESSION_CACHE_MS } from "@/server/lib/session";
import { tokenOf } from "@/tests/support/cluster";
import { type EventStreamClient, openEventStream, topicsOf } from "@/tests/support/event-stream";
import { waitFor } from "@/tests/support/server-process";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// One LISTEN connection per instance (decision 051): the jobs room's hub carries the event streams' wake-ups
// and the session broadcast, and both come back after PostgreSQL kills it. PGlite has no connection to count
// or kill.
const t = setUpTestApp();
const open: EventStreamClient[] = [];
let baseUrl: string;

const onPostgres = process.env.DATABASE_URL !== undefined;

beforeAll(async () => {
  if (onPostgres) baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => {
  for (const s of open) s.close();
});

/** Backends of the app's database whose last statement was a LISTEN: the connections that listen. */
const listeners = async () =>
  (
    await t.database.query<{ pid: number }>(
      `select pid from pg_stat_activity
        where datname = current_database() and query like 'LISTEN %' and pid <> pg_backend_pid()`,
    )
  ).map((row) => row.pid);

async function streamOf(who: SignedInUser) {
  const s = await openEventStream(baseUrl, { cookie: who.cookie });
  open.push(s);
  expect(s.status).toBe(200);
  await s.next((e) => e.event === "ready");
  return s;
}

/** A support reply written straight to the table: its trigger commits the notice and the wake-up. */
const supportReply = (userId: string) =>
  t.database.query("insert into chat_messages (user_id, is_from_user, message) values ($1, false, 'Hi')", [
    userId,
  ]);

/** What another instance's session broadcast sends when its customer's polls change. */
const otherInstanceChanged = (userId: string) =>
  t.database.query("select pg_notify('pillar_session_cache', $1)", [
    JSON.stringify({ origin: "another-instance", polls: [userId] }),
  ]);

/**
 * The session broadcast hears another instance: this instance forgets that user's remembered poll answers. A user
 * id nothing else names, so a stream's wake-up (which forgets them too) cannot pass for it.
 */
async function broadcastHeard() {
  const userId = randomUUID();
  const changed = vi.spyOn(t.app.polls, "changed");
  try {
    await waitFor(
      "the session broadcast to hear another instance",
      async () => {
        await otherInstanceChanged(userId);
        return changed.mock.calls.some(
          ([change, how]) => "userIds" in change && change.userIds.includes(userId) && !how?.broadcast,
        );
      },
      { timeoutMs: 5_000, intervalMs: 100 },
    );
  } finally {
    changed.mockRestore();
  }
}

describe.runIf(onPostgres)("the instance's one LISTEN connection", () => {
  it("carries the jobs room, the event streams and the session broadcast", async () => {
    await t.app.ready();
    expect(await listeners()).toHaveLength(1);

    const alice = await createVerifiedUser(t.database);
    const stream = await streamOf(alice);
    await supportReply(alice.user.id);
    expect(topicsOf(await stream.next((e) => e.event === "change", 5_000))).toEqual(["chat"]);

    await broadcastHeard();

    // A session another instance ended is refused here at once, not after the cache's 5 s.
    const bob = await createVerifiedUser(t.database);
    const me = () => t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: bob.cookie } });
    expect((await me()).statusCode).toBe(200);
    const cachedAt = Date.now();
    await t.database.query("delete from sessions where user_id = $1", [bob.user.id]);
    expect((await me()).statusCode).toBe(200);
    await t.database.query("select pg_notify('pillar_session_cache', $1)", [
      JSON.stringify({ origin: "another-instance", idHash: hashSessionToken(tokenOf(bob.cookie)) }),
    ]);
    await waitFor("the ended session to be refused", async () => (await me()).statusCode === 401, {
      timeoutMs: 2_000,
      intervalMs: 20,
    });
    expect(Date.now() - cachedAt).toBeLessThan(SESSION_CACHE_MS);
    expect(await listeners()).toHaveLength(1);
  });

  it("comes back after PostgreSQL kills it: streams re-read what they missed, the broadcast hears again", async () => {
    const alice = await createVerifiedUser(t.database);
    const stream = await streamOf(alice);
    const [before] = await listeners();
    expect(before).toBeDefined();

    await t.database.query("select pg_terminate_backend($1)", [before]);
    await waitFor("the listening backend to end", async () => (await listeners()).length === 0, {
      intervalMs: 5,
    });
    // Committed while nothing listens: its wake-up is lost, and only the reconnect's re-read delivers it (the
    // periodic re-check is a minute away).
    await supportReply(alice.user.id);
    expect(await listeners()).toEqual([]);
    expect(topicsOf(await stream.next((e) => e.event === "change", 10_000))).toEqual(["chat"]);

    const after = await waitFor("one listening backend again", async () => {
      const pids = await listeners();
      return pids.length === 1 ? pids : null;
    });
    expect(after[0]).not.toBe(before);

    await broadcastHeard();
    const seen = stream.events.filter((e) => e.event === "change").length;
    await supportReply(alice.user.id);
    await waitFor("the next wake-up", () => stream.events.filter((e) => e.event === "change").length > seen, {
      timeoutMs: 5_000,
      intervalMs: 20,
    });
    expect(await listeners()).toHaveLength(1);
  });
});
