import { randomBytes } from "node:crypto";
import net from "node:net";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/tests/support/test-app";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Redis runs on the CI machine; a fresh machine without it skips these (REDIS=required makes them mandatory). */
async function redisReachable(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    socket.once("connect", () => resolve(socket.end() && true));
    socket.once("error", () => resolve(false));
  });
}
const hasRedis = await redisReachable();
if (!hasRedis && process.env.REDIS === "required")
  throw new Error(`REDIS=required but ${REDIS_URL} is unreachable`);

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

async function instance(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp(env);
  apps.push(t);
  return t;
}

const failedLogin = (t: TestApp, email: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password: "Not-the-password-1" },
  });

describe.skipIf(!hasRedis)("rate limits shared through REDIS_URL", () => {
  // First in the file on purpose: in a fresh test process the connection was still opening when the app was
  // ready (3 of 3 runs failed here before the instance waited for it); later, with ioredis loaded, it is not.
  it("counts an instance's first request in Redis: it waits for its connection before it serves", async () => {
    const prefix = `test:${randomBytes(6).toString("hex")}:`;
    const t = await instance({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
    expect((await failedLogin(t, "first@example.com")).statusCode).toBe(401);
    const redis = new Redis(REDIS_URL);
    try {
      // Counted on its own (the connection still opening), it would be missing from the shared total.
      expect(await redis.get(`${prefix}rl:POST/api/auth/login-127.0.0.1`)).toBe("1");
    } finally {
      redis.disconnect();
    }
  });

  it("counts a client's logins across instances: 10 a minute in all, not 10 per instance", async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: `test:${randomBytes(6).toString("hex")}:` };
    const [a, b] = [await instance(env), await instance(env)];
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await failedLogin(i % 2 === 0 ? a : b, `nobody${i}@example.com`);
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("shares the per-account limit too (a keyed limit on the e-mail)", async () => {
    const env = {
      REDIS_URL,
      REDIS_KEY_PREFIX: `test:${randomBytes(6).toString("hex")}:`,
      RATE_LIMIT_SCALE: "1",
    };
    const [a, b] = [await instance(env), await instance(env)];
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      // Different client addresses would need a proxy; the same address trips the per-IP limit at the same
      // count, so the shared e-mail bucket is checked through its own 429 message.
      const res = await failedLogin(i % 2 === 0 ? a : b, "target@example.com");
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });

  it("keeps each route's count under the prefix with the window's expiry, so no counter outlives its window", async () => {
    const prefix = `test:${randomBytes(6).toString("hex")}:`;
    const t = await instance({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
    const redis = new Redis(REDIS_URL);
    try {
      // The instance's connection may still be opening (it counts locally meanwhile): a few tries, under the limit.
      let keys: string[] = [];
      for (let i = 0; i < 5 && !keys.includes(`${prefix}rl:POST/api/auth/login-127.0.0.1`); i++) {
        expect((await failedLogin(t, `nobody${i}@example.com`)).statusCode).toBe(401);
        keys = await redis.keys(`${prefix}rl:*`);
        if (keys.length === 0) await new Promise((r) => setTimeout(r, 200));
      }
      expect(keys).toContain(`${prefix}rl:POST/api/auth/login-127.0.0.1`);
      // The keyed (per e-mail) counters too, created through createRateLimit with no route of their own.
      expect(keys.some((k) => k.startsWith(`${prefix}rl:-login:email:`))).toBe(true);
      for (const key of keys) {
        const ttl = await redis.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(60_000);
      }
    } finally {
      redis.disconnect();
    }
  });

  it("falls back to counting per instance while Redis is unreachable, never failing a request", async () => {
    const t = await instance({ REDIS_URL: "redis://127.0.0.1:1", REDIS_KEY_PREFIX: "test:down:" });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await failedLogin(t, `nobody${i}@example.com`)).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });
});
