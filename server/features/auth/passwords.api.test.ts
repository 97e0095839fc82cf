import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES, AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, logIn } from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" }));

const post = (url: string, payload?: unknown, cookie?: string) =>
  t.app.inject({
    method: "POST",
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: cookie ? { cookie } : {},
  });
const me = (cookie: string) => t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
const NEW_PASSWORD = "Violet-Harbour-58-compass";

describe("forgot and reset password", () => {
  it("answers identically whether or not the e-mail exists", async () => {
    const { email } = await createVerifiedUser(t.database);
    const known = await post("/api/auth/forgot-password", { email });
    const unknown = await post("/api/auth/forgot-password", { email: "nobody-here@example.com" });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe(AUTH_SERVER_MESSAGES.resetRequested);
    // Asking again within 30 s is quietly absorbed: still the same answer, still one e-mail.
    const again = await post("/api/auth/forgot-password", { email });
    expect(again.json()).toEqual(unknown.json());
    await sink.waitForMail(email, (m) => /reset/i.test(m.subject));
  });

  it("sets the password with a valid code and signs out every session", async () => {
    const { email, password, cookie } = await createVerifiedUser(t.database);
    const other = await logIn(t.app, email, password);
    // Both sessions used once, so this process holds them in its session cache.
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(200);
    await post("/api/auth/forgot-password", { email });
    const mail = await sink.waitForMail(email, (m) => /reset/i.test(m.subject));
    const res = await post("/api/auth/reset-password", {
      email,
      resetCode: mail.code,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_SERVER_MESSAGES.passwordReset);
    expect((await me(cookie)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    const oldLogin = await post("/api/auth/login", { email, password });
    expect(oldLogin.statusCode).toBe(401);
    await logIn(t.app, email, NEW_PASSWORD);

    const replay = await post("/api/auth/reset-password", {
      email,
      resetCode: mail.code,
      newPassword: "Another-Orchid-61-ledger",
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(AUTH_MESSAGES.invalidCode);
  });

  it("refuses a wrong code, a short or common password, and an unknown e-mail, changing nothing", async () => {
    const { email, password } = await createVerifiedUser(t.database);
    await post("/api/auth/forgot-password", { email });
    const { code } = await sink.waitForMail(email, (m) => /reset/i.test(m.subject));
    const wrongCode = String((Number(code) + 7) % 1_000_000).padStart(6, "0");
    const cases = [
      [{ email, resetCode: wrongCode, newPassword: NEW_PASSWORD }, AUTH_MESSAGES.invalidCode],
      [{ email, resetCode: code, newPassword: "Short1" }, AUTH_MESSAGES.resetPasswordTooShort],
      [{ email, resetCode: code, newPassword: "password1" }, AUTH_MESSAGES.commonPassword],
      [{ email, resetCode: "12345", newPassword: NEW_PASSWORD }, AUTH_MESSAGES.codeInvalid],
      [{ email: "ghost@example.com", resetCode: code, newPassword: NEW_PASSWORD }, AUTH_MESSAGES.invalidCode],
      [{ email, resetCode: code }, AUTH_MESSAGES.resetMissing],
    ] as const;
    for (const [payload, message] of cases) {
      const res = await post("/api/auth/reset-password", payload);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(message);
    }
    await logIn(t.app, email, password);
    // The code survived the refusals that were not about the code (only one wrong try so far).
    const ok = await post("/api/auth/reset-password", { email, resetCode: code, newPassword: NEW_PASSWORD });
    expect(ok.statusCode).toBe(200);
  });

  it("refuses an expired reset code", async () => {
    const { email, user } = await createVerifiedUser(t.database);
    await post("/api/auth/forgot-password", { email });
    const { code } = await sink.waitForMail(email, (m) => /reset/i.test(m.subject));
    await t.database.query("update one_time_codes set expires_at = now() where user_id = $1", [user.id]);
    const res = await post("/api/auth/reset-password", { email, resetCode: code, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
  });
});

describe("change password", () => {
  async function codeFor(email: string, cookie: string) {
    const sent = await post("/api/auth/send-password-otp", undefined, cookie);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ message: AUTH_SERVER_MESSAGES.passwordOtpSent, expiresInSeconds: 600 });
    return (await sink.waitForMail(email, (m) => /password change code/i.test(m.subject))).code!;
  }

  it("needs a session", async () => {
    expect((await post("/api/auth/send-password-otp")).statusCode).toBe(401);
    const res = await post("/api/auth/change-password", {
      currentPassword: "x",
      newPassword: NEW_PASSWORD,
      otpCode: "123456",
    });
    expect(res.statusCode).toBe(401);
  });

  it("changes the password with the current one and the code, keeps this session, ends the others, and tells the owner", async () => {
    const { email, password, cookie } = await createVerifiedUser(t.database);
    const other = await logIn(t.app, email, password);
    expect((await me(other)).statusCode).toBe(200);
    const otpCode = await codeFor(email, cookie);
    const res = await post(
      "/api/auth/change-password",
      { currentPassword: password, newPassword: NEW_PASSWORD, otpCode },
      cookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_SERVER_MESSAGES.passwordChanged);
    expect((await me(cookie)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    const notice = await sink.waitForMail(email, (m) => /password was changed/i.test(m.subject));
    expect(notice.text).toContain("password");
    await logIn(t.app, email, NEW_PASSWORD);
  });

  it("refuses a wrong current password (400, not 401) without spending the code", async () => {
    const { email, password, cookie } = await createVerifiedUser(t.database);
    const otpCode = await codeFor(email, cookie);
    const wrong = await post(
      "/api/auth/change-password",
      { currentPassword: "Not-My-Password-11", newPassword: NEW_PASSWORD, otpCode },
      cookie,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(AUTH_SERVER_MESSAGES.currentPasswordWrong);
    const ok = await post(
      "/api/auth/change-password",
      { currentPassword: password, newPassword: NEW_PASSWORD, otpCode },
      cookie,
    );
    expect(ok.statusCode).toBe(200);
  });

  it("refuses a wrong code, a common password, a missing code and a code for another purpose", async () => {
    const { email, password, cookie } = await createVerifiedUser(t.database);
    await post("/api/auth/forgot-password", { email });
    const resetCode = (await sink.waitForMail(email, (m) => /reset/i.test(m.subject))).code!;
    const otpCode = await codeFor(email, cookie);
    const change = (body: object) => post("/api/auth/change-password", body, cookie);

    const other = await change({ currentPassword: password, newPassword: NEW_PASSWORD, otpCode: resetCode });
    if (resetCode !== otpCode) expect(other.statusCode).toBe(400);
    const common = await change({ currentPassword: password, newPassword: "12345678", otpCode });
    expect(common.json().message).toBe(AUTH_MESSAGES.commonPassword);
    const missing = await change({ currentPassword: password, newPassword: NEW_PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(AUTH_MESSAGES.verificationCodeRequired);
    const same = await change({ currentPassword: password, newPassword: password, otpCode });
    expect(same.json().message).toBe(AUTH_SERVER_MESSAGES.samePassword);
    await logIn(t.app, email, password);
  });
});
