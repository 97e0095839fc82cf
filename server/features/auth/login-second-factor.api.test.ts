import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SECURITY_MESSAGES } from "@/contract/security";
import { authChallenges } from "@/server/db/schema";
import { clearSessionCache } from "@/server/lib/session";
import { enrolTotp, freshTotpCode, totpCode } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, logIn, sessionCookieFrom } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "10" });

const setCookies = (res: { headers: Record<string, unknown> }) =>
  [res.headers["set-cookie"] as string | string[] | undefined].flat().filter(Boolean) as string[];

/** A customer with the authenticator on; `cookie` is the session they enrolled with. */
async function customerWithTotp() {
  const signedIn = await createVerifiedUser(t.database);
  const factor = await enrolTotp(t.app, signedIn.cookie);
  return { ...signedIn, ...factor };
}

async function passwordStep(email: string, password: string, cookie?: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/auth/login",
    payload: { email, password },
    headers: cookie ? { cookie } : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  const pending = setCookies(res).find((c) => c.startsWith("pillar_2fa="));
  return { res, pending: pending?.split(";")[0] };
}

const verify = (pending: string | undefined, secondFactor: object, extraCookie?: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/auth/login/verify",
    payload: { secondFactor },
    headers: { cookie: [pending, extraCookie].filter(Boolean).join("; ") },
  });

describe("sign-in with a second factor", () => {
  it("sets no session after the password, only a five-minute pending cookie, then opens one with the code", async () => {
    const { user, email, password, secret } = await customerWithTotp();
    const { res, pending } = await passwordStep(email, password);
    expect(res.json()).toEqual({
      message: SECURITY_MESSAGES.secondFactorRequired,
      secondFactorRequired: true,
      methods: ["totp", "recovery"],
    });
    expect(setCookies(res).some((c) => /^(__Host-)?sid=/.test(c))).toBe(false);
    const raw = setCookies(res).find((c) => c.startsWith("pillar_2fa="))!;
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    expect(raw).toMatch(/Max-Age=300/i);
    // The pending cookie is not a session.
    const asSession = await t.app.inject({
      method: "GET",
      url: "/api/auth/user",
      headers: { cookie: pending! },
    });
    expect(asSession.statusCode).toBe(401);

    const ok = await verify(pending, {
      method: "totp",
      code: await freshTotpCode(t.database, user.id, secret),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user).toMatchObject({ email, secondFactorEnabled: true });
    const cookie = sessionCookieFrom(ok.headers["set-cookie"] as string[]);
    expect(setCookies(ok).find((c) => c.startsWith("pillar_2fa="))).toMatch(/Expires=Thu, 01 Jan 1970/);
    // Every way in sets the readable "signed in" hint the web probes by.
    expect(setCookies(ok).find((c) => c.startsWith("pillar_signed_in="))).toMatch(/^pillar_signed_in=1;/);
    const me = await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
    expect(me.statusCode).toBe(200);
  });

  it("refuses a wrong code without a session, and a pending login already used", async () => {
    const { user, email, password, secret } = await customerWithTotp();
    const { pending } = await passwordStep(email, password);
    const code = await freshTotpCode(t.database, user.id, secret);
    const wrong = await verify(pending, { method: "totp", code: code === "000000" ? "111111" : "000000" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ secondFactorInvalid: true });
    expect(setCookies(wrong).some((c) => /^sid=/.test(c))).toBe(false);
    expect((await verify(pending, { method: "totp", code })).statusCode).toBe(200);
    const reused = await verify(pending, {
      method: "totp",
      code: await freshTotpCode(t.database, user.id, secret),
    });
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ loginExpired: true, message: SECURITY_MESSAGES.loginExpired });
  });

  it("never accepts the same code twice, even on a new sign-in", async () => {
    const { user, email, password, secret } = await customerWithTotp();
    const code = await freshTotpCode(t.database, user.id, secret);
    const first = await passwordStep(email, password);
    expect((await verify(first.pending, { method: "totp", code })).statusCode).toBe(200);
    const second = await passwordStep(email, password);
    const replay = await verify(second.pending, { method: "totp", code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ secondFactorInvalid: true });
  });

  it("expires the half-done login after five minutes", async () => {
    const { user, email, password, secret } = await customerWithTotp();
    const { pending } = await passwordStep(email, password);
    await t.database.db
      .update(authChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(authChallenges.userId, user.id));
    const late = await verify(pending, {
      method: "totp",
      code: await freshTotpCode(t.database, user.id, secret),
    });
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject({ loginExpired: true });
    const noCookie = await verify(undefined, { method: "totp", code: totpCode(secret) });
    expect(noCookie.statusCode).toBe(401);
    expect(noCookie.json()).toMatchObject({ loginExpired: true });
  });

  it("burns the pending login after five wrong codes", async () => {
    const { user, email, password, secret } = await customerWithTotp();
    const { pending } = await passwordStep(email, password);
    const good = await freshTotpCode(t.database, user.id, secret);
    const bad = good === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++)
      expect((await verify(pending, { method: "totp", code: bad })).statusCode).toBe(400);
    const burnt = await verify(pending, { method: "totp", code: good });
    expect(burnt.statusCode).toBe(401);
    expect(burnt.json()).toMatchObject({ loginExpired: true });
  });

  it("signs in with a recovery code once, and ends the session the browser came with", async () => {
    const { email, password, recoveryCodes } = await customerWithTotp();
    const planted = await createVerifiedUser(t.database);
    const { pending } = await passwordStep(email, password, planted.cookie);
    const ok = await verify(pending, { method: "recovery", code: recoveryCodes[0] }, planted.cookie);
    expect(ok.statusCode, ok.body).toBe(200);
    clearSessionCache();
    const old = await t.app.inject({
      method: "GET",
      url: "/api/auth/user",
      headers: { cookie: planted.cookie },
    });
    expect(old.statusCode).toBe(401);
    const again = await passwordStep(email, password);
    const reused = await verify(again.pending, { method: "recovery", code: recoveryCodes[0] });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ secondFactorInvalid: true });
  });

  it("keeps today's one-step sign-in for customers without a second factor", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    const cookie = await logIn(t.app, email, password);
    const me = await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
    expect(me.json().secondFactorEnabled).toBe(false);
  });

  it("answers passkey options only for a live pending login", async () => {
    const none = await t.app.inject({ method: "POST", url: "/api/auth/login/passkey-options" });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ loginExpired: true });
  });
});
