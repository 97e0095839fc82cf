import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES, AUTH_SERVER_MESSAGES } from "@/contract/auth";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, logIn } from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "100" }));

const reset = (payload: object, remoteAddress = "127.0.0.1") =>
  t.app.inject({ method: "POST", url: "/api/auth/reset-password", payload, remoteAddress });
const NEW_PASSWORD = "Violet-Harbour-58-compass";
// Headers whose values differ per request by nature; their names must still match.
const VARYING = new Set(["date", "x-request-id", "content-length"]);

async function withResetCode() {
  const { email, password, user } = await createVerifiedUser(t.database);
  await t.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email } });
  const { code } = await sink.waitForMail(email, (m) => /reset/i.test(m.subject));
  const wrongCode = String((Number(code) + 7) % 1_000_000).padStart(6, "0");
  return { email, password, user, code: code!, wrongCode };
}

describe("reset-password reveals nothing about accounts", () => {
  it("answers an unknown e-mail exactly like a known one with a wrong code", async () => {
    const { email, wrongCode } = await withResetCode();
    // Two fresh client addresses, so the per-IP rate-limit headers count alike too.
    const known = await reset({ email, resetCode: wrongCode, newPassword: NEW_PASSWORD }, "10.7.0.1");
    const unknown = await reset(
      { email: "nobody-at-all@example.com", resetCode: wrongCode, newPassword: NEW_PASSWORD },
      "10.7.0.2",
    );
    expect(known.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(known.statusCode);
    const { requestId: _a, ...knownBody } = known.json();
    const { requestId: _b, ...unknownBody } = unknown.json();
    expect(unknownBody).toEqual(knownBody);
    expect(knownBody).toEqual({
      message: AUTH_MESSAGES.invalidCode,
      code: "BAD_REQUEST",
      reason: "invalid_code",
      invalidCode: true,
    });
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    for (const [name, value] of Object.entries(known.headers)) {
      if (!VARYING.has(name)) expect(unknown.headers[name], name).toEqual(value);
    }
  });

  it("judges the new password only after the code is right, and a refused password does not spend the code", async () => {
    const { email, password, code, wrongCode } = await withResetCode();
    const weakWrongCode = await reset({ email, resetCode: wrongCode, newPassword: "password1" });
    expect(weakWrongCode.statusCode).toBe(400);
    expect(weakWrongCode.json()).toMatchObject({ message: AUTH_MESSAGES.invalidCode, invalidCode: true });
    expect(weakWrongCode.json().commonPassword).toBeUndefined();

    const weakRightCode = await reset({ email, resetCode: code, newPassword: "password1" });
    expect(weakRightCode.statusCode).toBe(400);
    expect(weakRightCode.json()).toMatchObject({
      message: AUTH_MESSAGES.commonPassword,
      commonPassword: true,
    });
    await logIn(t.app, email, password);

    const ok = await reset({ email, resetCode: code, newPassword: NEW_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(AUTH_SERVER_MESSAGES.passwordReset);
    await logIn(t.app, email, NEW_PASSWORD);
  });

  it("spends a code once even when two resets race with it", async () => {
    const { email, code } = await withResetCode();
    const [a, b] = await Promise.all([
      reset({ email, resetCode: code, newPassword: NEW_PASSWORD }),
      reset({ email, resetCode: code, newPassword: "Another-Orchid-61-ledger" }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
  });
});
