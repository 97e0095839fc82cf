import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@/contract/auth";
import { SIGNED_IN_HINT_COOKIE, SIGNED_OUT_PATH } from "@/contract/session-hint";
import { clearSessionCache } from "@/server/lib/session";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { createTestApp, setUpTestApp } from "@/tests/support/test-app";
import {
  createVerifiedUser,
  logIn,
  sessionCookieFrom,
  signupBody,
  TEST_PASSWORD,
} from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({
  SMTP_URL: sink.url,
  RATE_LIMIT_SCALE: "100",
  ADMIN_EMAILS: "chief@example.com",
}));

const me = (cookie?: string) =>
  t.app.inject({ method: "GET", url: "/api/auth/user", headers: cookie ? { cookie } : {} });
/** One cookie's Set-Cookie line among the reply's. */
const cookieHeader = (header: string | string[] | undefined, name: string) =>
  [header ?? []].flat().find((line) => line.startsWith(`${name}=`));
const login = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url: "/api/auth/login", payload: payload as object, headers });

describe("login", () => {
  it("sets an HttpOnly, SameSite=Lax session cookie holding 256 random bits", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const res = await login({ email, password });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(email);
    const setCookie = String(res.headers["set-cookie"]);
    expect(setCookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    const token = setCookie.slice(4, 47);
    const rows = await t.database.query<{ id_hash: string }>("select id_hash from sessions");
    expect(rows.some((r) => r.id_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.id_hash))).toBe(true);
  });

  it("answers a wrong password and an unknown e-mail the same way", async () => {
    const { email } = await createVerifiedUser(t.database);
    const wrong = await login({ email, password: "Wrong-Password-123" });
    const unknown = await login({ email: "ghost@example.com", password: "Wrong-Password-123" });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(AUTH_MESSAGES.invalidCredentials);
    expect(unknown.json().message).toBe(AUTH_MESSAGES.invalidCredentials);
    expect(Object.keys(wrong.json()).sort()).toEqual(Object.keys(unknown.json()).sort());
  });

  it("refuses missing fields with the spec's message", async () => {
    const res = await login({ email: "a@example.com" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(AUTH_MESSAGES.loginMissing);
    const empty = await login({ email: "", password: "" });
    expect(empty.json().message).toBe(AUTH_MESSAGES.loginMissing);
    const long = await login({ email: "a@example.com", password: "x".repeat(10_000) });
    expect(long.statusCode).toBe(400);
  });

  it("sends an unverified account a fresh code and says to verify", async () => {
    const body = signupBody();
    await t.app.inject({ method: "POST", url: "/api/auth/register", payload: body });
    await sink.waitForMail(body.email);
    await t.database.query(
      "update one_time_codes set created_at = created_at - interval '1 minute' where user_id = (select id from users where email = $1)",
      [body.email],
    );
    const res = await login({ email: body.email, password: body.password });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain("verify your email");
    const mail = await sink.waitForMail(body.email);
    expect(mail.code).toMatch(/^\d{6}$/);
  });

  it("issues a new session id on every login and ends the one the browser came with", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const first = await logIn(t.app, email, password);
    const res = await login({ email, password }, { cookie: first });
    const second = sessionCookieFrom(res.headers["set-cookie"]);
    expect(second).not.toBe(first);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
  });

  it("makes an ADMIN_EMAILS account an admin at login", async () => {
    const { password } = await createVerifiedUser(t.database, { email: "chief@example.com" });
    const res = await login({ email: "chief@example.com", password });
    expect(res.json().user.isAdmin).toBe(true);
  });
});

describe("session", () => {
  it("answers GET /api/auth/user with 401 when signed out", async () => {
    const res = await me();
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe("Unauthorized");
  });

  it("refuses a forged cookie", async () => {
    expect((await me("sid=forged-value-that-is-long-enough-to-look-real")).statusCode).toBe(401);
    expect((await me(`sid=${"A".repeat(43)}`)).statusCode).toBe(401);
    expect((await me(`sid=${"x".repeat(5000)}`)).statusCode).toBe(401);
  });

  it("ends after 30 minutes idle", async () => {
    const { cookie, user } = await createVerifiedUser(t.database);
    expect((await me(cookie)).statusCode).toBe(200);
    await t.database.query(
      "update sessions set last_seen_at = now() - interval '31 minutes' where user_id = $1",
      [user.id],
    );
    clearSessionCache();
    expect((await me(cookie)).statusCode).toBe(401);
    // The dead row is cleared at the next login.
    await logIn(t.app, user.email, TEST_PASSWORD);
    const rows = await t.database.query("select 1 from sessions where user_id = $1", [user.id]);
    expect(rows).toHaveLength(1);
  });

  it("ends at its absolute expiry even when in use", async () => {
    const { cookie, user } = await createVerifiedUser(t.database);
    await t.database.query(
      "update sessions set expires_at = now() - interval '1 second' where user_id = $1",
      [user.id],
    );
    clearSessionCache();
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("moves last_seen_at at most once a minute", async () => {
    const { cookie, user } = await createVerifiedUser(t.database);
    const seen = async () =>
      (
        await t.database.query<{ t: string }>(
          "select last_seen_at::text as t from sessions where user_id = $1",
          [user.id],
        )
      )[0]!.t;
    const before = await seen();
    await me(cookie);
    await me(cookie);
    expect(await seen()).toBe(before);
    await t.database.query(
      "update sessions set last_seen_at = now() - interval '2 minutes' where user_id = $1",
      [user.id],
    );
    clearSessionCache();
    const stale = await seen();
    await me(cookie);
    expect(await seen()).not.toBe(stale);
  });

  it("logs out: ends the session, clears both cookies and lands on the signed-out confirmation", async () => {
    const { cookie } = await createVerifiedUser(t.database);
    const res = await t.app.inject({ method: "GET", url: "/api/logout", headers: { cookie } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(SIGNED_OUT_PATH);
    expect(String(res.headers["set-cookie"])).toMatch(/^sid=;/);
    expect(cookieHeader(res.headers["set-cookie"], SIGNED_IN_HINT_COOKIE)).toMatch(
      new RegExp(`^${SIGNED_IN_HINT_COOKIE}=;.*Expires=Thu, 01 Jan 1970`),
    );
    expect((await me(cookie)).statusCode).toBe(401);
    const again = await t.app.inject({ method: "GET", url: "/api/logout" });
    expect(again.statusCode).toBe(302);
  });
});

describe("signed-in hint cookie", () => {
  it("is set readable beside the session cookie on login, carrying no secret", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const res = await login({ email, password });
    const hint = cookieHeader(res.headers["set-cookie"], SIGNED_IN_HINT_COOKIE);
    expect(hint).toMatch(new RegExp(`^${SIGNED_IN_HINT_COOKIE}=1;`));
    expect(hint).not.toMatch(/HttpOnly/);
    expect(hint).toMatch(/SameSite=Lax/);
    expect(hint).toMatch(/Path=\//);
    expect(hint).toMatch(/Max-Age=43200/);
  });

  it("is cleared when the probe finds no session behind it, and left alone when there is none", async () => {
    const stale = await me(`${SIGNED_IN_HINT_COOKIE}=1`);
    expect(stale.statusCode).toBe(401);
    expect(cookieHeader(stale.headers["set-cookie"], SIGNED_IN_HINT_COOKIE)).toMatch(/^pillar_signed_in=;/);
    const ended = await createVerifiedUser(t.database);
    await t.app.inject({ method: "GET", url: "/api/logout", headers: { cookie: ended.cookie } });
    const revoked = await me(`${ended.cookie}; ${SIGNED_IN_HINT_COOKIE}=1`);
    expect(revoked.statusCode).toBe(401);
    expect(cookieHeader(revoked.headers["set-cookie"], SIGNED_IN_HINT_COOKIE)).toMatch(/^pillar_signed_in=;/);
    const bare = await me();
    expect(bare.statusCode).toBe(401);
    expect(bare.headers["set-cookie"]).toBeUndefined();
  });
});

describe("phone", () => {
  const put = (cookie: string | undefined, payload: unknown) =>
    t.app.inject({
      method: "PUT",
      url: "/api/user/phone",
      payload: payload as object,
      headers: cookie ? { cookie } : {},
    });

  it("can be added once, then is locked", async () => {
    const { cookie } = await createVerifiedUser(t.database, { phoneNumber: null });
    const first = await put(cookie, { phoneNumber: "+1 (415) 555-0199" });
    expect(first.statusCode).toBe(200);
    // Stored and answered in E.164, whatever was typed.
    expect(first.json().phoneNumber).toBe("+14155550199");
    const second = await put(cookie, { phoneNumber: "+1 415 555 0100" });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(AUTH_MESSAGES.phoneLocked);
    expect((await me(cookie)).json().phoneNumber).toBe("+14155550199");
  });

  it("needs a session and a valid number", async () => {
    expect((await put(undefined, { phoneNumber: "+1 415 555 0100" })).statusCode).toBe(401);
    const { cookie } = await createVerifiedUser(t.database, { phoneNumber: null });
    const empty = await put(cookie, { phoneNumber: "" });
    expect(empty.json().message).toBe(AUTH_MESSAGES.phoneRequired);
    const bad = await put(cookie, { phoneNumber: "<script>" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(AUTH_MESSAGES.phoneInvalid);
    expect((await put(cookie, { phoneNumber: 5551234567 })).statusCode).toBe(400);
    // Looks like a phone number, but no such number can exist: refused, nothing stored.
    const impossible = await put(cookie, { phoneNumber: "555-0100" });
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json()).toMatchObject({ message: AUTH_MESSAGES.phoneInvalid, field: "phoneNumber" });
    expect((await me(cookie)).json().phoneNumber).toBeNull();
  });
});

describe("secure cookies (COOKIE_SECURE)", () => {
  it("names the cookie __Host-sid and marks it Secure", async () => {
    const secure = await createTestApp({ COOKIE_SECURE: "true", RATE_LIMIT_SCALE: "100" });
    try {
      const { email, password } = await createVerifiedUser(secure.database);
      const res = await secure.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email, password },
      });
      const setCookie = String(res.headers["set-cookie"]);
      expect(setCookie).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43};/);
      expect(setCookie).toMatch(/Secure/);
      const cookie = sessionCookieFrom(res.headers["set-cookie"]);
      const user = await secure.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
      expect(user.statusCode).toBe(200);
      // The plain name is not read when secure cookies are on.
      const plain = cookie.replace("__Host-sid", "sid");
      expect(
        (await secure.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: plain } }))
          .statusCode,
      ).toBe(401);
    } finally {
      await secure.close();
    }
  });
});
