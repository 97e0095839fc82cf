import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES, AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { type SmtpSink, startSmtpSink } from "@/tests/support/smtp-sink";
import { createTestApp, type TestApp } from "@/tests/support/test-app";
import { sessionCookieFrom, signUpAndVerify, signupBody } from "@/tests/support/users";

let t: TestApp;
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100", ADMIN_EMAILS: "boss@example.com" });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

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
      phoneNumber: "+1 212 555 0100",
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

  it("answers a repeat sign-up of an unverified e-mail with emailNotVerified and a new code, without overwriting", async () => {
    const first = signupBody({ firstName: "Original" });
    expect((await post("/api/auth/register", first)).statusCode).toBe(200);
    await codeMail(first.email);
    const again = await post("/api/auth/register", {
      ...signupBody({ firstName: "Intruder", password: "Another-Strong-Pass-93" }),
      email: first.email,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ emailNotVerified: true });
    expect(again.json().message).toBe(AUTH_SERVER_MESSAGES.emailNotVerified);
    const [row] = await t.database.query<{ first_name: string }>(
      "select first_name from users where email = $1",
      [first.email],
    );
    expect(row!.first_name).toBe("Original");
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
  ])("refuses %s with 400 and writes nothing", async (_name, patch, message) => {
    const before = await t.database.query<{ n: number }>("select count(*)::int as n from users");
    const body = Object.keys(patch).length ? { ...signupBody(), ...patch } : patch;
    const res = await post("/api/auth/register", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const after = await t.database.query<{ n: number }>("select count(*)::int as n from users");
    expect(after[0]!.n).toBe(before[0]!.n);
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
