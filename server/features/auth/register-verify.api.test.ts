import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES, AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { grantStaffRoles } from "@/server/features/staff/grant-staff-roles";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { createTestApp, setUpTestApp } from "@/tests/support/test-app";
import { sessionCookieFrom, signUpAndVerify, signupBody } from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({
  SMTP_URL: sink.url,
  RATE_LIMIT_SCALE: "100",
  ADMIN_EMAILS: "boss@example.com,owner-boss@example.com",
}));

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "POST", url, payload: payload as object, headers });
const codeMail = (email: string) => sink.waitForMail(email, (m) => /verification code/i.test(m.subject));

describe("sign-up", () => {
  it("registers, e-mails a 6-digit code, verifies, and only then lets the user log in", async () => {
    const body = signupBody({ email: "Mixed.Case@Example.com", pillarTag: "Mixed_Tag" });
    const reg = await post("/api/auth/register", body);
    expect(reg.statusCode).toBe(200);
    expect(reg.json()).toEqual({
      message: AUTH_SERVER_MESSAGES.registered,
      email: "mixed.case@example.com",
      requiresVerification: true,
    });
    expect(reg.headers["set-cookie"]).toBeUndefined();

    const mail = await codeMail("mixed.case@example.com");
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(mail.code);

    const early = await post("/api/auth/login", { email: body.email, password: body.password });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toMatch(/verify your email/);
    expect(early.json().emailNotVerified).toBe(true);
    expect(early.headers["set-cookie"]).toBeUndefined();

    // The code sent seconds ago is still good, so the login attempt did not replace it (resend limit).
    const ok = await post("/api/auth/verify-email", { email: body.email, otp: mail.code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(AUTH_SERVER_MESSAGES.verified);

    const login = await post("/api/auth/login", { email: "MIXED.case@example.com", password: body.password });
    expect(login.statusCode).toBe(200);
    const cookie = sessionCookieFrom(login.headers["set-cookie"]);
    const me = await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      email: "mixed.case@example.com",
      pillarTag: "mixed_tag",
      isEmailVerified: true,
      isVerified: true,
      isAdmin: false,
      phoneNumber: "+12125550100",
    });
    expect(me.json()).not.toHaveProperty("passwordHash");
  });

  it("refuses a taken e-mail (any case) and a taken Pillar tag (any case) with 409", async () => {
    const user = await signUpAndVerify(t.app, sink);
    const sameEmail = await post("/api/auth/register", signupBody({ email: user.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toBe("An account with this email already exists");

    const tag = signupBody().pillarTag;
    expect((await post("/api/auth/register", signupBody({ pillarTag: tag }))).statusCode).toBe(200);
    const sameTag = await post("/api/auth/register", signupBody({ pillarTag: tag.toUpperCase() }));
    expect(sameTag.statusCode).toBe(409);
    expect(sameTag.json().message).toBe("This Pillar tag is already taken");
  });

  it("lets the latest registrant of an unverified e-mail replace the pending details, with a fresh code", async () => {
    const first = signupBody({ firstName: "Original" });
    expect((await post("/api/auth/register", first)).statusCode).toBe(200);
    const firstMail = await codeMail(first.email);
    const second = {
      ...signupBody({ firstName: "Latest", password: "Another-Strong-Pass-93" }),
      email: first.email,
    };
    const again = await post("/api/auth/register", second);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ emailNotVerified: true });
    expect(again.json().message).toBe(AUTH_SERVER_MESSAGES.emailNotVerified);
    const [row] = await t.database.query<{ first_name: string; pillar_tag: string }>(
      "select first_name, pillar_tag from users where email = $1",
      [first.email],
    );
    expect(row).toEqual({ first_name: "Latest", pillar_tag: second.pillarTag });

    // The code sent for the replaced details is dead; the new one (sent at once, no resend wait) works.
    const stale = await post("/api/auth/verify-email", { email: first.email, otp: firstMail.code });
    expect(stale.statusCode).toBe(400);
    const fresh = await codeMail(first.email);
    expect(fresh.code).not.toBe(firstMail.code);
    expect((await post("/api/auth/verify-email", { email: first.email, otp: fresh.code })).statusCode).toBe(
      200,
    );
  });

  it("never lets a stranger's pre-registration keep its password once the owner signs up and verifies", async () => {
    const victimEmail = `victim.${Date.now()}@example.com`;
    const attacker = {
      ...signupBody({ firstName: "Mallory", password: "Attacker-Chosen-Pass-61" }),
      email: victimEmail,
    };
    expect((await post("/api/auth/register", attacker)).statusCode).toBe(200);
    await codeMail(victimEmail); // lands in the victim's inbox; the attacker never sees it

    // The attacker cannot use the unverified account at all.
    const early = await post("/api/auth/login", { email: victimEmail, password: attacker.password });
    expect(early.statusCode).toBe(403);
    expect(early.headers["set-cookie"]).toBeUndefined();

    const victim = {
      ...signupBody({ firstName: "Victoria", password: "Owner-Chosen-Pass-28" }),
      email: victimEmail,
    };
    const reg = await post("/api/auth/register", victim);
    expect(reg.statusCode).toBe(409);
    expect(reg.json().emailNotVerified).toBe(true);
    const mail = await codeMail(victimEmail);
    const ok = await post("/api/auth/verify-email", {
      email: victimEmail,
      otp: mail.code,
      password: victim.password,
    });
    expect(ok.statusCode).toBe(200);

    const asAttacker = await post("/api/auth/login", { email: victimEmail, password: attacker.password });
    expect(asAttacker.statusCode).toBe(401);
    expect(asAttacker.headers["set-cookie"]).toBeUndefined();
    const asVictim = await post("/api/auth/login", { email: victimEmail, password: victim.password });
    expect(asVictim.statusCode).toBe(200);
    expect(asVictim.json().user).toMatchObject({ firstName: "Victoria", pillarTag: victim.pillarTag });
  });

  it("refuses to confirm a registration that was replaced after the owner's code was sent", async () => {
    const email = `race.${Date.now()}@example.com`;
    const owner = { ...signupBody({ password: "Owner-Chosen-Pass-28" }), email };
    expect((await post("/api/auth/register", owner)).statusCode).toBe(200);
    await codeMail(email);
    const attacker = { ...signupBody({ password: "Attacker-Chosen-Pass-61" }), email };
    expect((await post("/api/auth/register", attacker)).statusCode).toBe(409);
    // The newest code in the owner's inbox now belongs to the attacker's details: the web sends the
    // owner's password with it, and the server refuses instead of confirming the attacker's password.
    const latest = await codeMail(email);
    const refused = await post("/api/auth/verify-email", {
      email,
      otp: latest.code,
      password: owner.password,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      registrationChanged: true,
      message: AUTH_SERVER_MESSAGES.registrationChanged,
    });
    const [row] = await t.database.query<{ is_email_verified: boolean }>(
      "select is_email_verified from users where email = $1",
      [email],
    );
    expect(row!.is_email_verified).toBe(false);
    // Signing up again puts the owner's details back, and their code then works.
    expect((await post("/api/auth/register", owner)).statusCode).toBe(409);
    const mine = await codeMail(email);
    expect(
      (await post("/api/auth/verify-email", { email, otp: mine.code, password: owner.password })).statusCode,
    ).toBe(200);
    expect((await post("/api/auth/login", { email, password: owner.password })).statusCode).toBe(200);
    expect((await post("/api/auth/login", { email, password: attacker.password })).statusCode).toBe(401);
  });

  it("gives an ADMIN_EMAILS address no admin session when a stranger registers it first", async () => {
    const attacker = {
      ...signupBody({ password: "Attacker-Chosen-Pass-61" }),
      email: "owner-boss@example.com",
    };
    expect((await post("/api/auth/register", attacker)).statusCode).toBe(200);
    await codeMail("owner-boss@example.com");
    const login = await post("/api/auth/login", {
      email: "owner-boss@example.com",
      password: attacker.password,
    });
    expect(login.statusCode).toBe(403);
    expect(login.headers["set-cookie"]).toBeUndefined();
    const [row] = await t.database.query<{ is_admin: boolean }>(
      "select is_admin from users where email = $1",
      ["owner-boss@example.com"],
    );
    expect(row!.is_admin).toBe(false);
    const stats = await t.app.inject({ method: "GET", url: "/api/admin/stats" });
    expect(stats.statusCode).toBe(401);

    // The real owner signs up, reads the code, and only they become admin.
    const owner = { ...signupBody({ password: "Owner-Chosen-Pass-28" }), email: "owner-boss@example.com" };
    expect((await post("/api/auth/register", owner)).statusCode).toBe(409);
    const mail = await codeMail("owner-boss@example.com");
    expect((await post("/api/auth/verify-email", { email: owner.email, otp: mail.code })).statusCode).toBe(
      200,
    );
    expect(
      (await post("/api/auth/login", { email: owner.email, password: attacker.password })).statusCode,
    ).toBe(401);
    const ownerLogin = await post("/api/auth/login", { email: owner.email, password: owner.password });
    expect(ownerLogin.statusCode).toBe(200);
    expect(ownerLogin.json().user.isAdmin).toBe(true);
  });

  it("grants admin by ADMIN_EMAILS only when the e-mail was proved after the current password was set", async () => {
    const email = "boss2@example.com";
    const app2 = await createTestApp({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100", ADMIN_EMAILS: email });
    try {
      const body = { ...signupBody(), email };
      expect(
        (await app2.app.inject({ method: "POST", url: "/api/auth/register", payload: body })).statusCode,
      ).toBe(200);
      const mail = await codeMail(email);
      await app2.app.inject({
        method: "POST",
        url: "/api/auth/verify-email",
        payload: { email, otp: mail.code },
      });
      // A password that changed later without a fresh proof of the inbox (only possible behind the app's back).
      await app2.database.query(
        "update users set staff_roles = '{}', password_set_at = email_verified_at + interval '1 minute' where email = $1",
        [email],
      );
      const login = await app2.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email, password: body.password },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.isAdmin).toBe(false);
    } finally {
      await app2.close();
    }
  });

  it("refuses admin:grant for an account that has not verified its e-mail", async () => {
    const body = signupBody();
    expect((await post("/api/auth/register", body)).statusCode).toBe(200);
    await expect(grantStaffRoles(t.database.db, body.email, ["owner"])).rejects.toMatchObject({
      message: AUTH_SERVER_MESSAGES.adminNeedsVerifiedEmail,
    });
    const [row] = await t.database.query<{ is_admin: boolean }>(
      "select is_admin from users where email = $1",
      [body.email],
    );
    expect(row!.is_admin).toBe(false);
  });

  it("stores SQL and HTML in names verbatim and returns them as data", async () => {
    const nasty = `Robert'); DROP TABLE users;-- <script>alert(1)</script>`;
    const user = await signUpAndVerify(t.app, sink, { firstName: nasty, lastName: "<b>O'Brien</b>" });
    const me = await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: user.cookie } });
    expect(me.headers["content-type"]).toMatch(/application\/json/);
    expect(me.json().firstName).toBe(nasty);
    expect(me.json().lastName).toBe("<b>O'Brien</b>");
    const [{ count }] = (await t.database.query<{ count: string }>("select count(*) from users")) as [
      { count: string },
    ];
    expect(Number(count)).toBeGreaterThan(0);
  });

  it("escapes names in the e-mail's HTML", async () => {
    const body = signupBody({ firstName: `<img src=x onerror=alert(1)>` });
    expect((await post("/api/auth/register", body)).statusCode).toBe(200);
    const mail = await codeMail(body.email);
    expect(mail.html).not.toContain("<img src=x");
    expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  it("refuses common passwords with the spec's message", async () => {
    for (const password of ["password", "123456", "qwerty123", "iloveyou"]) {
      const res = await post("/api/auth/register", signupBody({ password }));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(AUTH_MESSAGES.commonPassword);
    }
  });

  it("ignores extra fields such as isAdmin", async () => {
    const body = { ...signupBody(), isAdmin: true, isEmailVerified: true };
    expect((await post("/api/auth/register", body)).statusCode).toBe(200);
    const [row] = await t.database.query<{ is_admin: boolean; is_email_verified: boolean }>(
      "select is_admin, is_email_verified from users where email = $1",
      [body.email],
    );
    expect(row).toEqual({ is_admin: false, is_email_verified: false });
  });

  it.each([
    ["missing fields", {}, AUTH_MESSAGES.signupMissing],
    ["an empty first name", { firstName: "  " }, AUTH_MESSAGES.signupMissing],
    ["a short password", { password: "abc" }, AUTH_MESSAGES.passwordTooShort],
    ["a 10 KB password", { password: "x".repeat(10_000) }, AUTH_MESSAGES.passwordTooLong],
    ["a 10 KB name", { firstName: "x".repeat(10_000) }, "Must be at most 100 characters"],
    ["a bad tag", { pillarTag: "no spaces!" }, AUTH_MESSAGES.handleInvalid],
    ["a bad e-mail", { email: "not-an-email" }, AUTH_MESSAGES.emailInvalid],
    ["a bad phone", { phoneNumber: "call me" }, AUTH_MESSAGES.phoneInvalid],
    ["a phone number that cannot exist", { phoneNumber: "(212) 555-01" }, AUTH_MESSAGES.phoneInvalid],
  ])("refuses %s with 400 and writes nothing", async (_name, patch, message) => {
    const before = await t.database.query<{ n: number }>("select count(*)::int as n from users");
    const body = Object.keys(patch).length ? { ...signupBody(), ...patch } : patch;
    const res = await post("/api/auth/register", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const after = await t.database.query<{ n: number }>("select count(*)::int as n from users");
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("stores the phone number in E.164, whatever the format it was typed in", async () => {
    const body = signupBody({ phoneNumber: "(415) 555-0132" });
    expect((await post("/api/auth/register", body)).statusCode).toBe(200);
    const [row] = await t.database.query<{ phone_number: string }>(
      "select phone_number from users where email = $1",
      [body.email],
    );
    expect(row).toEqual({ phone_number: "+14155550132" });
  });

  it("refuses wrong-typed fields with 400", async () => {
    const res = await post("/api/auth/register", { ...signupBody(), email: ["a@b.c"], password: 123456 });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("VALIDATION");
  });

  it("makes an ADMIN_EMAILS account an admin when it is verified", async () => {
    const user = await signUpAndVerify(t.app, sink, { email: "boss@example.com" });
    const me = await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie: user.cookie } });
    expect(me.json().isAdmin).toBe(true);
  });
});

describe("verification codes", () => {
  async function registerAndGetCode() {
    const body = signupBody();
    expect((await post("/api/auth/register", body)).statusCode).toBe(200);
    return { body, code: (await codeMail(body.email)).code! };
  }
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  it("cannot be replayed", async () => {
    const { body, code } = await registerAndGetCode();
    expect((await post("/api/auth/verify-email", { email: body.email, otp: code })).statusCode).toBe(200);
    const replay = await post("/api/auth/verify-email", { email: body.email, otp: code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(AUTH_MESSAGES.invalidCode);
  });

  it("expires after ten minutes", async () => {
    const { body, code } = await registerAndGetCode();
    await t.database.query(
      "update one_time_codes set expires_at = now() - interval '1 second' where user_id = (select id from users where email = $1)",
      [body.email],
    );
    const res = await post("/api/auth/verify-email", { email: body.email, otp: code });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(AUTH_MESSAGES.invalidCode);
  });

  it("is burnt by five wrong tries: the sixth fails even with the right code", async () => {
    const { body, code } = await registerAndGetCode();
    for (let i = 0; i < 5; i++) {
      const res = await post("/api/auth/verify-email", { email: body.email, otp: wrong(code) });
      expect(res.statusCode).toBe(400);
    }
    const sixth = await post("/api/auth/verify-email", { email: body.email, otp: code });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().message).toBe(AUTH_MESSAGES.invalidCode);
  });

  it("still accepts the right code after four wrong tries", async () => {
    const { body, code } = await registerAndGetCode();
    for (let i = 0; i < 4; i++) await post("/api/auth/verify-email", { email: body.email, otp: wrong(code) });
    expect((await post("/api/auth/verify-email", { email: body.email, otp: code })).statusCode).toBe(200);
  });

  it("refuses a malformed code with the spec's message", async () => {
    const res = await post("/api/auth/verify-email", { email: "a@example.com", otp: "12ab" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(AUTH_MESSAGES.codeInvalid);
  });

  it("limits resends: not within 30 s, and at most 5 an hour, with 429", async () => {
    const { body } = await registerAndGetCode();
    const tooSoon = await post("/api/auth/resend-verification", { email: body.email });
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().message).toBe(AUTH_SERVER_MESSAGES.codeTooSoon);

    const age = async () =>
      t.database.query(
        "update one_time_codes set created_at = created_at - interval '31 seconds' where user_id = (select id from users where email = $1)",
        [body.email],
      );
    for (let i = 0; i < 4; i++) {
      await age();
      const res = await post("/api/auth/resend-verification", { email: body.email });
      expect(res.statusCode).toBe(200);
      await codeMail(body.email);
    }
    await age();
    const sixth = await post("/api/auth/resend-verification", { email: body.email });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toBe(AUTH_SERVER_MESSAGES.tooManyCodes);
  });

  it("makes only the newest code valid after a resend", async () => {
    const { body, code } = await registerAndGetCode();
    await t.database.query(
      "update one_time_codes set created_at = created_at - interval '1 minute' where user_id = (select id from users where email = $1)",
      [body.email],
    );
    expect((await post("/api/auth/resend-verification", { email: body.email })).statusCode).toBe(200);
    const fresh = (await codeMail(body.email)).code!;
    if (fresh !== code) {
      expect((await post("/api/auth/verify-email", { email: body.email, otp: code })).statusCode).toBe(400);
    }
    expect((await post("/api/auth/verify-email", { email: body.email, otp: fresh })).statusCode).toBe(200);
  });

  it("answers resend for an unknown e-mail like for a known one", async () => {
    const res = await post("/api/auth/resend-verification", { email: "nobody@example.com" });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_SERVER_MESSAGES.verificationResent);
  });

  it("stores only a hash of the code", async () => {
    const { body, code } = await registerAndGetCode();
    const rows = await t.database.query<{ code_hash: string }>(
      "select code_hash from one_time_codes where user_id = (select id from users where email = $1)",
      [body.email],
    );
    expect(rows[0]!.code_hash).not.toContain(code);
    expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
