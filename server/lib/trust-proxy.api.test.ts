import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@/tests/support/test-app";
import { createVerifiedUser, sessionCookieFrom } from "@/tests/support/users";

const PRODUCTION = { NODE_ENV: "production", SESSION_SECRET: "s".repeat(40), DATA_KEY: "ab".repeat(32) };

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Logs in through a proxy chain and reads back the address the session recorded for the client. */
async function clientIpSeen(app: TestApp, forwardedFor: string): Promise<string | null> {
  const { email, password } = await createVerifiedUser(app.database);
  const login = await app.app.inject({
    method: "POST",
    url: "/api/auth/login",
    headers: { "x-forwarded-for": forwardedFor },
    payload: { email, password },
  });
  expect(login.statusCode).toBe(200);
  const cookie = sessionCookieFrom(login.headers["set-cookie"]).replace(/^sid=/, "__Host-sid=");
  const sessions = await app.app.inject({ method: "GET", url: "/api/auth/sessions", headers: { cookie } });
  return (sessions.json() as { current: boolean; ip: string | null }[]).find((s) => s.current)?.ip ?? null;
}

describe("client address behind proxies", () => {
  it("ignores X-Forwarded-For in production unless TRUST_PROXY is set", async () => {
    t = await createTestApp(PRODUCTION);
    expect(await clientIpSeen(t, "6.6.6.6, 198.51.100.7")).toBe("127.0.0.1");
  });

  it("takes the address one trusted hop from the right, never the forged leftmost entry", async () => {
    t = await createTestApp({ ...PRODUCTION, TRUST_PROXY: "1" });
    expect(await clientIpSeen(t, "6.6.6.6, 198.51.100.7")).toBe("198.51.100.7");
  });

  it("walks past listed proxy addresses from the right", async () => {
    t = await createTestApp({ ...PRODUCTION, TRUST_PROXY: "127.0.0.1,10.0.0.0/8" });
    expect(await clientIpSeen(t, "6.6.6.6, 198.51.100.7, 10.1.2.3")).toBe("198.51.100.7");
  });

  it("keeps the per-IP login limit when a client rotates the leftmost entry", async () => {
    t = await createTestApp({ ...PRODUCTION, TRUST_PROXY: "1" });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        headers: { "x-forwarded-for": `203.0.113.${i}, 198.51.100.9` },
        payload: { email: `nobody${i}@example.com`, password: "Not-the-password-1" },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
