import { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EVENTS_HEARTBEAT_MS } from "@/contract/events";
import { createSession } from "@/server/lib/session";
import { type Cluster, type Instance, REDIS_URL, startCluster, tokenOf } from "@/tests/support/cluster";
import { openEventStream, topicsOf } from "@/tests/support/event-stream";
import { haproxyConfig } from "@/tests/support/haproxy";
import { type ClientReply, request } from "@/tests/support/http-client";
import { waitFor } from "@/tests/support/server-process";
import { createVerifiedUser, signupBody } from "@/tests/support/users";

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster(3);
});
// Each test starts on three healthy instances and a Redis that answers, whatever the one before it did.
beforeEach(async () => {
  await cluster.ensureHealthy();
});
afterAll(async () => {
  await cluster?.stop();
});

const names = () => new Set(cluster.instances.map((x) => x.name));

const meOn = (instance: Instance, token: string) =>
  request(instance.server.url, "/api/auth/user", { headers: { cookie: cluster.cookieFor(token) } }).then(
    (r) => r.status,
  );

/** A failed login through the balancer from the loopback address `from` (a client of its own). */
const failedLogin = (from: string, email: string, headers: Record<string, string> = {}) =>
  request(cluster.lb.url, "/api/auth/login", {
    method: "POST",
    from,
    headers,
    body: { email, password: "Not-the-password-1" },
  });

async function failedLogins(from: string, count: number): Promise<ClientReply[]> {
  const replies: ClientReply[] = [];
  for (let i = 0; i < count; i++) replies.push(await failedLogin(from, `nobody.${from}.${i}@example.com`));
  return replies;
}

/** Resolves once every other instance refuses the token; the broadcast must beat the 5 s cache by far. */
function refusedElsewhere(token: string, others: Instance[]) {
  return Promise.all(
    others.map((x) =>
      waitFor(`${x.name} to refuse the ended session`, async () => (await meOn(x, token)) === 401, {
        timeoutMs: 1_000,
        intervalMs: 25,
      }),
    ),
  );
}

describe("state shared by three instances behind HAProxy", () => {
  it("refuses a session on B and C within a second of A ending it (revocation, then logout)", async () => {
    const { database } = cluster.scratch;
    const customer = await createVerifiedUser(database);
    const first = tokenOf(customer.cookie);
    const second = await createSession(database.db, { userId: customer.user.id, userAgent: "phone" });
    const [a, ...others] = cluster.instances as [Instance, ...Instance[]];
    // B and C cache both sessions.
    for (const x of others) {
      expect(await meOn(x, first)).toBe(200);
      expect(await meOn(x, second.token)).toBe(200);
    }

    const revoked = await request(a.server.url, `/api/auth/sessions/${second.publicId}`, {
      method: "DELETE",
      headers: { cookie: cluster.cookieFor(first) },
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    await refusedElsewhere(second.token, others);
    for (const x of others) expect(await meOn(x, first)).toBe(200);

    const logout = await request(a.server.url, "/api/logout", {
      headers: { cookie: cluster.cookieFor(first) },
    });
    expect(logout.status).toBe(302);
    await refusedElsewhere(first, others);
  });

  it("counts failed logins over every instance in Redis: the 11th is 429 whichever instance answers", async () => {
    const attempts = await failedLogins("127.0.0.2", 10);
    expect(attempts.map((r) => r.status)).toEqual(Array(10).fill(401));
    expect(new Set(attempts.map((r) => r.servedBy))).toEqual(names());

    // Round-robin: the next three land on each instance once, and each already knows the count.
    const refused = await failedLogins("127.0.0.2", 3);
    expect(refused.map((r) => r.status)).toEqual([429, 429, 429]);
    expect(new Set(refused.map((r) => r.servedBy))).toEqual(names());
    // The balancer appends the real client to a forged X-Forwarded-For; only 127.0.0.1 is trusted to name it.
    const forged = await failedLogin("127.0.0.2", "forged@example.com", { "x-forwarded-for": "203.0.113.7" });
    expect(forged.status).toBe(429);
    // Another client has its own bucket.
    expect((await failedLogin("127.0.0.3", "someone@example.com")).status).toBe(401);

    const redis = new Redis(REDIS_URL, { lazyConnect: true });
    try {
      await redis.connect();
      expect((await redis.keys(`${cluster.redisKeyPrefix}rl:*`)).length).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });

  it("delivers each outbox mail exactly once with all three workers racing for it", async () => {
    const signups = Array.from({ length: 30 }, (_, i) => ({ from: `127.0.1.${i + 1}`, body: signupBody() }));
    const replies = await Promise.all(
      signups.map((s) =>
        request(cluster.lb.url, "/api/auth/register", { method: "POST", from: s.from, body: s.body }),
      ),
    );
    for (const r of replies) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(new Set(replies.map((r) => r.servedBy))).toEqual(names());
    const emails = signups.map((s) => s.body.email.toLowerCase());

    const { database } = cluster.scratch;
    const outbox = () =>
      database.query<{ to_address: string; status: string; attempts: number }>(
        "select to_address, status, attempts from mail_outbox where to_address = any($1::text[])",
        [emails],
      );
    await waitFor(
      "every sign-up code to be sent",
      async () => {
        const rows = await outbox();
        return rows.length === emails.length && rows.every((r) => r.status === "sent");
      },
      { timeoutMs: 30_000 },
    );
    const delivered = () => cluster.sink.messages.filter((m) => m.to.some((to) => emails.includes(to)));
    await waitFor("the sink to receive every code", () => delivered().length >= emails.length);

    for (const email of emails) {
      const mails = delivered().filter((m) => m.to.includes(email));
      expect(mails, email).toHaveLength(1);
      expect(mails[0]!.code, email).toMatch(/^\d{6}$/);
    }
    expect(delivered()).toHaveLength(emails.length);
    // A row sent twice would have counted two attempts.
    for (const row of await outbox()) expect(row.attempts, row.to_address).toBe(1);
  });

  it("falls back to per-instance limits with a warning while Redis is down, never failing a request", async () => {
    const customer = await createVerifiedUser(cluster.scratch.database);
    await cluster.redis.cut();
    try {
      // Each instance first notices Redis is gone (one counted request of a throwaway client, straight to
      // it), so none counts part of the burst below in Redis and the rest alone.
      for (const x of cluster.instances) {
        await request(x.server.url, "/api/auth/login", {
          method: "POST",
          from: "127.0.0.9",
          body: { email: `probe.${x.name}@example.com`, password: "Not-the-password-1" },
        });
        await waitFor(`${x.name} to warn that Redis is unreachable`, () =>
          x.server.output().includes("rate limits: Redis unreachable, counting per instance"),
        );
      }
      // Each instance now counts alone: 10 each, 30 in all, before the 429s.
      const replies = await failedLogins("127.0.0.4", 33);
      for (const r of replies) expect(r.fromApp, JSON.stringify(r.body)).toBe(true);
      expect(replies.map((r) => r.status)).toEqual([...Array(30).fill(401), 429, 429, 429]);
      const me = await request(cluster.lb.url, "/api/auth/user", {
        headers: { cookie: cluster.cookieFor(tokenOf(customer.cookie)) },
      });
      expect(me.status).toBe(200);
    } finally {
      await cluster.redis.restore();
    }

    // Once every instance has reconnected, a new client is held to 10 in all again.
    let probe = 0;
    await waitFor(
      "the instances to count in Redis again",
      async () => {
        const statuses = (await failedLogins(`127.0.2.${++probe}`, 11)).map((r) => r.status);
        return statuses.slice(0, 10).every((s) => s === 401) && statuses[10] === 429;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    const after = await failedLogins(`127.0.2.${probe}`, 3);
    expect(after.map((r) => r.status)).toEqual([429, 429, 429]);
  });

  it("treats a frozen Redis (a partition: connections open, nothing answers) like a down one", async () => {
    await cluster.redis.stall();
    try {
      // The first counted request on each instance waits out Redis's command timeout; the instance then drops
      // the frozen connection, so the rest count locally without waiting for Redis at all.
      const replies = await failedLogins("127.0.0.5", 33);
      for (const r of replies) expect(r.fromApp, JSON.stringify(r.body)).toBe(true);
      expect(replies.map((r) => r.status)).toEqual([...Array(30).fill(401), 429, 429, 429]);
      for (const x of cluster.instances) {
        await waitFor(`${x.name} to drop the frozen Redis connection`, () =>
          x.server.output().includes("rate limits: Redis stopped answering; reconnecting"),
        );
      }
    } finally {
      await cluster.redis.restore();
    }
  });
  it("pushes a change written through one instance to a stream held on another, and resumes it on a third", async () => {
    const customer = await createVerifiedUser(cluster.scratch.database);
    const cookie = cluster.cookieFor(tokenOf(customer.cookie));
    const byName = new Map(cluster.instances.map((x) => [x.name, x]));
    // Through the balancer, as a browser opens it: HAProxy must pass the stream on as it is written.
    const stream = await openEventStream(cluster.lb.url, { cookie });
    expect(stream.status).toBe(200);
    const holder = String(stream.headers["x-served-by"]);
    expect(byName.has(holder)).toBe(true);
    const ready = await stream.next((e) => e.event === "ready");
    const [writer, third] = cluster.instances.filter((x) => x.name !== holder) as [Instance, Instance];

    const send = (on: Instance, message: string) =>
      request(on.server.url, "/api/chat/send", { method: "POST", headers: { cookie }, body: { message } });
    expect((await send(writer, "Written through another instance")).status).toBe(200);
    const change = await stream.next((e) => e.event === "change" && topicsOf(e).includes("chat"), 10_000);
    expect(Number(change.id)).toBeGreaterThan(Number(ready.id));
    stream.close();

    // Missed while no stream was open; the reconnect lands on the third instance and resumes without a gap.
    expect((await send(writer, "Written while the tab was away")).status).toBe(200);
    const resumed = await openEventStream(third.server.url, { cookie, "last-event-id": change.id! });
    try {
      const again = await resumed.next((e) => e.event === "ready");
      expect(JSON.parse(again.data)).toEqual({ resumed: true });
      const missed = await resumed.next((e) => e.event === "change", 10_000);
      expect(Number(missed.id)).toBe(Number(change.id) + 1);
      expect(topicsOf(missed)).toContain("chat");
    } finally {
      resumed.close();
    }
  });

  it("keeps an idle stream inside the balancer's timeouts: the heartbeat comes well before them", () => {
    const config = haproxyConfig(1, 2, [{ name: "app1", port: 3 }]);
    for (const side of ["client", "server"]) {
      const seconds = Number(new RegExp(`timeout ${side} (\\d+)s`).exec(config)?.[1]);
      expect(seconds * 1000, side).toBeGreaterThanOrEqual(2 * EVENTS_HEARTBEAT_MS);
    }
  });
});
