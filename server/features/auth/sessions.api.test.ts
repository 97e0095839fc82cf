import { beforeAll, describe, expect, it } from "vitest";
import { AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { grantStaffRoles } from "@/server/features/staff/grant-staff-roles";
import { requireAdmin, requireUser } from "@/server/lib/session-plugin";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser, logIn } from "@/tests/support/users";

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
beforeAll(async () => {
  // Stand-ins for the admin API, to prove the exported hooks guard a route on their own.
  t.app.get("/api/test/admin-only", { preHandler: requireAdmin }, async () => ({ ok: true }));
  t.app.get("/api/test/user-only", { preHandler: requireUser }, async () => ({ ok: true }));
});

async function loginWith(email: string, password: string, userAgent: string, remoteAddress: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    headers: { "user-agent": userAgent },
    remoteAddress,
  });
  expect(res.statusCode).toBe(200);
  return String(res.headers["set-cookie"]).split(";")[0]!;
}
const list = (cookie: string) =>
  t.app.inject({ method: "GET", url: "/api/auth/sessions", headers: { cookie } });
const del = (url: string, cookie: string) => t.app.inject({ method: "DELETE", url, headers: { cookie } });
const me = (cookie: string) => t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });

describe("sessions list", () => {
  it("lists the user's own live sessions with browser, IP, times and the current one marked", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const laptop = await loginWith(email, password, CHROME_WINDOWS, "203.0.113.7");
    await loginWith(email, password, SAFARI_IPHONE, "198.51.100.9");
    await createVerifiedUser(t.database); // someone else's session must not show up
    const res = await list(laptop);
    expect(res.statusCode).toBe(200);
    const sessions = res.json() as { browser: string; ip: string; current: boolean; id: string }[];
    const mine = sessions.filter((s) => s.ip !== "127.0.0.1");
    expect(mine).toHaveLength(2);
    const current = sessions.find((s) => s.current)!;
    expect(current).toMatchObject({ browser: "Chrome 120 on Windows", ip: "203.0.113.7" });
    expect(sessions.find((s) => s.ip === "198.51.100.9")).toMatchObject({
      browser: "Safari 17 on iOS",
      current: false,
    });
    expect(sessions.every((s) => /^[0-9a-f-]{36}$/.test(s.id))).toBe(true);
    expect(JSON.stringify(sessions)).not.toMatch(/id_?hash/i);
  });

  it("needs a session", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/auth/sessions" })).statusCode).toBe(401);
  });
});

describe("revoking sessions", () => {
  it("signs out one of the user's sessions by its id", async () => {
    const { email, password, cookie } = await createVerifiedUser(t.database);
    const phone = await logIn(t.app, email, password);
    const phoneId = (await list(phone)).json().find((s: { current: boolean }) => s.current).id;
    const res = await del(`/api/auth/sessions/${phoneId}`, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_SERVER_MESSAGES.sessionRevoked);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it("answers 404 for another user's session id, which stays signed in", async () => {
    const mallory = await createVerifiedUser(t.database);
    const alice = await createVerifiedUser(t.database);
    const aliceId = (await list(alice.cookie)).json()[0].id;
    const res = await del(`/api/auth/sessions/${aliceId}`, mallory.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(AUTH_SERVER_MESSAGES.sessionNotFound);
    expect((await me(alice.cookie)).statusCode).toBe(200);
  });

  it("answers 404 for a malformed or unknown id", async () => {
    const { cookie } = await createVerifiedUser(t.database);
    expect((await del("/api/auth/sessions/not-a-uuid", cookie)).statusCode).toBe(404);
    expect((await del("/api/auth/sessions/' or 1=1 --", cookie)).statusCode).toBe(404);
    expect((await del("/api/auth/sessions/00000000-0000-4000-8000-000000000000", cookie)).statusCode).toBe(
      404,
    );
  });

  it("signing out the current session clears its cookie", async () => {
    const { cookie } = await createVerifiedUser(t.database);
    const id = (await list(cookie)).json()[0].id;
    const res = await del(`/api/auth/sessions/${id}`, cookie);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers["set-cookie"])).toMatch(/^sid=;/);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("signs out all other sessions and keeps this one", async () => {
    const { email, password, cookie } = await createVerifiedUser(t.database);
    const a = await logIn(t.app, email, password);
    const b = await logIn(t.app, email, password);
    const res = await del("/api/auth/sessions", cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_SERVER_MESSAGES.otherSessionsRevoked);
    expect((await me(a)).statusCode).toBe(401);
    expect((await me(b)).statusCode).toBe(401);
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await list(cookie)).json()).toHaveLength(1);
  });
});

describe("requireUser and requireAdmin hooks", () => {
  it("answer 401 signed out, 403 for a customer, and let an admin through", async () => {
    const guest = await t.app.inject({ method: "GET", url: "/api/test/admin-only" });
    expect(guest.statusCode).toBe(401);
    expect(guest.json().message).toBe("Unauthorized");
    const customer = await createVerifiedUser(t.database);
    const refused = await t.app.inject({
      method: "GET",
      url: "/api/test/admin-only",
      headers: { cookie: customer.cookie },
    });
    expect(refused.statusCode).toBe(403);
    const ok = await t.app.inject({
      method: "GET",
      url: "/api/test/user-only",
      headers: { cookie: customer.cookie },
    });
    expect(ok.statusCode).toBe(200);
    const admin = await createAdminUser(t.database);
    const allowed = await t.app.inject({
      method: "GET",
      url: "/api/test/admin-only",
      headers: { cookie: admin.cookie },
    });
    expect(allowed.json()).toEqual({ ok: true });
  });

  it("never gives an unverified account a session, even with a stored one", async () => {
    const { cookie, user } = await createVerifiedUser(t.database);
    await t.database.query("update users set is_email_verified = false where id = $1", [user.id]);
    expect((await me(cookie)).statusCode).toBe(401);
  });
});

describe("the in-process session cache", () => {
  it("drops a session at logout even right after it was used", async () => {
    const { cookie } = await createVerifiedUser(t.database);
    expect((await me(cookie)).statusCode).toBe(200);
    await t.app.inject({ method: "GET", url: "/api/logout", headers: { cookie } });
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("drops the other sessions at once when the user signs them out", async () => {
    const { email, password, cookie } = await createVerifiedUser(t.database);
    const other = await logIn(t.app, email, password);
    expect((await me(other)).statusCode).toBe(200);
    await del("/api/auth/sessions", cookie);
    expect((await me(other)).statusCode).toBe(401);
  });

  it("shows a new phone number on the next request", async () => {
    const { cookie } = await createVerifiedUser(t.database, { phoneNumber: null });
    expect((await me(cookie)).json().phoneNumber ?? null).toBeNull();
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/user/phone",
      payload: { phoneNumber: "+14155550123" },
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(cookie)).json().phoneNumber).toBe("+14155550123");
  });

  it("lets a newly granted admin in on the next request", async () => {
    const { cookie, email } = await createVerifiedUser(t.database);
    const adminOnly = () => t.app.inject({ method: "GET", url: "/api/test/admin-only", headers: { cookie } });
    expect((await adminOnly()).statusCode).toBe(403);
    await grantStaffRoles(t.database.db, email, ["owner"]);
    expect((await adminOnly()).statusCode).toBe(200);
  });

  it("signs a deleted customer out at once", async () => {
    const admin = await createAdminUser(t.database);
    const { cookie, user } = await createVerifiedUser(t.database);
    expect((await me(cookie)).statusCode).toBe(200);
    const res = await del(`/api/admin/users/${user.id}`, admin.cookie);
    expect(res.statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });
});
