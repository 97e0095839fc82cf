import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STREAMS_PER_SESSION } from "@/contract/events";
import { EVENTS_MESSAGES } from "@/server/features/events/routes";
import { type EventStreamClient, openEventStream } from "@/tests/support/event-stream";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, logIn, type SignedInUser } from "@/tests/support/users";

const PER_USER = 6;
const BUDGET = 12;
const SESSIONS = 5;
const t = setUpTestApp({
  RATE_LIMIT_SCALE: "100",
  EVENT_STREAMS_PER_USER: String(PER_USER),
  EVENT_STREAMS_MAX: String(BUDGET),
  MAX_SESSIONS_PER_USER: String(SESSIONS),
  MAX_CONNECTIONS: "200",
  MAX_CONNECTIONS_PER_IP: "200",
});
let baseUrl: string;
const opened: EventStreamClient[] = [];
const ended = new Set<EventStreamClient>();
/** Streams the server still holds open, as their clients see them. */
const openCount = () => opened.filter((s) => s.status === 200 && !ended.has(s)).length;

beforeAll(async () => {
  baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => {
  for (const s of opened) s.close();
});

async function stream(cookie: string) {
  const s = await openEventStream(baseUrl, { cookie });
  opened.push(s);
  void s.ended.then(() => ended.add(s));
  if (s.status === 200) await s.next((e) => e.event === "ready");
  return s;
}

const isOpen = async (s: EventStreamClient) =>
  (await Promise.race([
    s.ended.then(() => false),
    new Promise((r) => setTimeout(() => r(true), 50)),
  ])) as boolean;

/** A plain request over a fresh socket, as a bystander's browser would send it. */
async function bystanderGets(cookie: string) {
  const res = await fetch(`${baseUrl}/api/auth/user`, { headers: { cookie } });
  return res.status;
}

/** `n` sessions of one user: the fixture's own and n − 1 logins. */
async function sessionsOf(user: SignedInUser, n: number): Promise<string[]> {
  const cookies = [user.cookie];
  while (cookies.length < n) cookies.push(await logIn(t.app, user.email, user.password));
  return cookies;
}

async function closeAll() {
  for (const s of opened.splice(0)) s.close();
  // The server counts a stream out when its socket closes: a moment after the client closed it.
  await new Promise((r) => setTimeout(r, 200));
}

describe("event streams one account may hold", () => {
  it(`caps one user at ${PER_USER} streams across sessions, ending the oldest, and a bystander still connects`, async () => {
    const mallory = await createVerifiedUser(t.database);
    const cookies = await sessionsOf(mallory, SESSIONS);
    const streams: EventStreamClient[] = [];
    // Every session asks for its full share: 20 streams wanted, as the attack held 160 from 40 logins.
    for (const cookie of cookies.slice(0, 4))
      for (let i = 0; i < STREAMS_PER_SESSION; i++) streams.push(await stream(cookie));
    expect(streams.every((s) => s.status === 200)).toBe(true);
    await expect.poll(openCount).toBe(PER_USER);

    // The newest stay; each older one was told why it ended, and ended.
    const kept = streams.slice(-PER_USER);
    const replaced = streams.slice(0, -PER_USER);
    for (const s of kept) expect(await isOpen(s)).toBe(true);
    for (const s of replaced) {
      const end = await s.next((e) => e.event === "end");
      expect(JSON.parse(end.data)).toEqual({ reason: "replaced" });
      await s.ended;
    }

    const bystander = await createVerifiedUser(t.database);
    expect(await bystanderGets(bystander.cookie)).toBe(200);
    const own = await stream(bystander.cookie);
    expect(own.status).toBe(200);
    await expect.poll(openCount).toBe(PER_USER + 1);
    await closeAll();
  });

  it("still holds a session to its own share, whatever the user's cap", async () => {
    const alice = await createVerifiedUser(t.database);
    for (let i = 0; i < STREAMS_PER_SESSION; i++) expect((await stream(alice.cookie)).status).toBe(200);
    const over = await stream(alice.cookie);
    expect(over.status).toBe(429);
    await closeAll();
  });

  it(`keeps the instance's streams within its budget (${BUDGET}); requests still connect past it`, async () => {
    const filling = [await createVerifiedUser(t.database), await createVerifiedUser(t.database)];
    for (const user of filling) {
      const [first, second] = await sessionsOf(user, 2);
      for (const cookie of [first!, second!])
        for (let i = 0; i < PER_USER / 2; i++) expect((await stream(cookie)).status).toBe(200);
    }
    await expect.poll(openCount).toBe(BUDGET);

    const late = await createVerifiedUser(t.database);
    const refused = await stream(late.cookie);
    expect(refused.status).toBe(429);
    const why = await t.app.inject({
      url: "/api/events",
      headers: { cookie: late.cookie, accept: "text/event-stream" },
    });
    expect(why.statusCode).toBe(429);
    expect(why.json().message).toBe(EVENTS_MESSAGES.streamsBusy);
    expect(await bystanderGets(late.cookie)).toBe(200);
    // A user at their own cap may still replace their oldest: it adds nothing to the total.
    const [, second] = await sessionsOf(filling[0]!, 2);
    expect((await stream(second!)).status).toBe(200);
    await expect.poll(openCount).toBe(BUDGET);

    // One tab closes (its socket with it): the budget has room again.
    const leaving = opened.find((s) => s.status === 200 && !ended.has(s))!;
    leaving.close();
    ended.add(leaving);
    await new Promise((r) => setTimeout(r, 200));
    expect((await stream(late.cookie)).status).toBe(200);
    await closeAll();
  });
});

describe("sessions one account may hold", () => {
  it(`keeps ${SESSIONS} active sessions in PostgreSQL: a login past it ends the oldest, and its streams`, async () => {
    const user = await createVerifiedUser(t.database);
    const cookies = await sessionsOf(user, SESSIONS);
    const oldest = await stream(cookies[0]!);
    expect(oldest.status).toBe(200);
    const newest = await logIn(t.app, user.email, user.password);

    const me = (cookie: string) => t.app.inject({ url: "/api/auth/user", headers: { cookie } });
    expect((await me(cookies[0]!)).statusCode).toBe(401);
    for (const cookie of [...cookies.slice(1), newest]) expect((await me(cookie)).statusCode).toBe(200);
    const end = await oldest.next((e) => e.event === "end", 5_000);
    expect(JSON.parse(end.data)).toEqual({ reason: "signed_out" });
    const [row] = await t.database.query<{ n: string }>(
      "select count(*)::text as n from sessions where user_id = $1",
      [user.user.id],
    );
    expect(row!.n).toBe(String(SESSIONS));
    await closeAll();
  });

  it("holds the cap when logins race", async () => {
    const user = await createVerifiedUser(t.database);
    const racing = await Promise.all(
      Array.from({ length: SESSIONS + 4 }, () => logIn(t.app, user.email, user.password)),
    );
    expect(racing).toHaveLength(SESSIONS + 4);
    const [row] = await t.database.query<{ n: string }>(
      "select count(*)::text as n from sessions where user_id = $1",
      [user.user.id],
    );
    expect(row!.n).toBe(String(SESSIONS));
  });
});
