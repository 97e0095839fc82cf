import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { RECOVERY_CODE_PATTERN, SECURITY_MESSAGES } from "@/contract/security";
import { recoveryCodes, totpFactors } from "@/server/db/schema";
import { enrolTotp, freshTotpCode, postJson, stepUpWithTotp, totpCode } from "@/tests/support/second-factor";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser } from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url }));

const post = (url: string, cookie: string, payload?: object) => postJson(t.app, url, cookie, payload);
const status = async (cookie: string) =>
  (await t.app.inject({ method: "GET", url: "/api/auth/second-factor", headers: { cookie } })).json();

describe("authenticator app (TOTP) setup", () => {
  it("enrols with a sealed secret, confirms with a first code, and shows ten single-use recovery codes", async () => {
    const { user, cookie, email } = await createVerifiedUser(t.database);
    const enrol = await post("/api/auth/totp/enroll", cookie);
    expect(enrol.statusCode).toBe(200);
    const { secret, otpauthUrl } = enrol.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Pillar:/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    const [row] = await t.database.db.select().from(totpFactors).where(eq(totpFactors.userId, user.id));
    expect(row!.secretSealed).toMatch(/^v1:/);
    expect(row!.secretSealed).not.toContain(secret);
    expect(row!.confirmedAt).toBeNull();
    expect((await status(cookie)).enabled).toBe(false);

    const wrong = await post("/api/auth/totp/confirm", cookie, { code: totpCode(secret, 5) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ secondFactorInvalid: true });
    expect((await status(cookie)).enabled).toBe(false);

    const confirm = await post("/api/auth/totp/confirm", cookie, { code: totpCode(secret) });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const codes: string[] = confirm.json().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(RECOVERY_CODE_PATTERN);
    const stored = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));

    expect(await status(cookie)).toMatchObject({
      enabled: true,
      totp: { enabled: true },
      recoveryCodesLeft: 10,
      methods: ["totp", "recovery"],
    });
    const me = await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } });
    expect(me.json().secondFactorEnabled).toBe(true);
    const mail = await sink.waitForMail(email, (m) => /two-step verification is on/i.test(m.subject));
    expect(mail.text).toMatch(/authenticator app was added/);
    // The owner can undo a change they did not make: the mail's single-use link freezes the account.
    const token = /this-wasnt-me#token=([\w-]+)/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    const freeze = await t.app.inject({ method: "POST", url: "/api/account/freeze", payload: { token } });
    expect(freeze.statusCode, freeze.body).toBe(200);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/auth/user", headers: { cookie } })).statusCode,
    ).toBe(401);
  });

  it("replaces a pending setup when started again, so the first key stops working", async () => {
    const { cookie } = await createVerifiedUser(t.database);
    const first = (await post("/api/auth/totp/enroll", cookie)).json().secret;
    const second = (await post("/api/auth/totp/enroll", cookie)).json().secret;
    expect(second).not.toBe(first);
    expect((await post("/api/auth/totp/confirm", cookie, { code: totpCode(first) })).statusCode).toBe(400);
    expect((await post("/api/auth/totp/confirm", cookie, { code: totpCode(second) })).statusCode).toBe(200);
  });

  it("refuses to confirm with nothing pending, and a second setup without a step-up or while on", async () => {
    const { user, cookie } = await createVerifiedUser(t.database);
    const none = await post("/api/auth/totp/confirm", cookie, { code: "123456" });
    expect(none.statusCode).toBe(409);
    const { secret } = await enrolTotp(t.app, cookie);
    const again = await post("/api/auth/totp/enroll", cookie);
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ stepUpRequired: true, methods: ["totp", "recovery"] });
    await stepUpWithTotp(t.app, t.database, { id: user.id, cookie, secret });
    const whileOn = await post("/api/auth/totp/enroll", cookie);
    expect(whileOn.statusCode).toBe(409);
    expect(whileOn.json().message).toBe(SECURITY_MESSAGES.totpAlreadyEnabled);
  });
});

describe("step-up", () => {
  it("accepts a code once: the same step replayed, a wrong code and an unused recovery code twice are refused", async () => {
    const { user, cookie } = await createVerifiedUser(t.database);
    const { secret, recoveryCodes: codes } = await enrolTotp(t.app, cookie);
    const code = await freshTotpCode(t.database, user.id, secret);
    const ok = await post("/api/auth/step-up", cookie, { secondFactor: { method: "totp", code } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: SECURITY_MESSAGES.steppedUp, expiresInSeconds: 300 });
    const replay = await post("/api/auth/step-up", cookie, { secondFactor: { method: "totp", code } });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ secondFactorInvalid: true });
    const wrong = await post("/api/auth/step-up", cookie, {
      secondFactor: { method: "totp", code: code === "000000" ? "111111" : "000000" },
    });
    expect(wrong.statusCode).toBe(400);

    const recovery = { method: "recovery", code: codes[0]!.toUpperCase() };
    expect((await post("/api/auth/step-up", cookie, { secondFactor: recovery })).statusCode).toBe(200);
    const reused = await post("/api/auth/step-up", cookie, { secondFactor: recovery });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe(SECURITY_MESSAGES.recoveryCodeInvalid);
    expect((await status(cookie)).recoveryCodesLeft).toBe(9);
  });

  it("refuses a step-up without any factor, and a code for another account", async () => {
    const a = await createVerifiedUser(t.database);
    const none = await post("/api/auth/step-up", a.cookie, {
      secondFactor: { method: "totp", code: "123456" },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ noSecondFactor: true });
    const b = await createVerifiedUser(t.database);
    const bFactor = await enrolTotp(t.app, b.cookie);
    await enrolTotp(t.app, a.cookie);
    const crossed = await post("/api/auth/step-up", a.cookie, {
      secondFactor: { method: "recovery", code: bFactor.recoveryCodes[0] },
    });
    expect(crossed.statusCode).toBe(400);
  });

  it("rate-limits guessing with 429", async () => {
    const { cookie } = await createVerifiedUser(t.database);
    await enrolTotp(t.app, cookie);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await post("/api/auth/step-up", cookie, {
        secondFactor: { method: "totp", code: String(100000 + i) },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("recovery codes and turning the authenticator off", () => {
  it("regenerates all ten codes only after a step-up, and the old ones stop working", async () => {
    const { user, cookie, email } = await createVerifiedUser(t.database);
    const { secret, recoveryCodes: old } = await enrolTotp(t.app, cookie);
    const refused = await post("/api/auth/recovery-codes", cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ stepUpRequired: true });
    await stepUpWithTotp(t.app, t.database, { id: user.id, cookie, secret });
    const res = await post("/api/auth/recovery-codes", cookie);
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(old[0]);
    const oldUse = await post("/api/auth/step-up", cookie, {
      secondFactor: { method: "recovery", code: old[1] },
    });
    expect(oldUse.statusCode).toBe(400);
    const newUse = await post("/api/auth/step-up", cookie, {
      secondFactor: { method: "recovery", code: fresh[1] },
    });
    expect(newUse.statusCode).toBe(200);
    await sink.waitForMail(email, (m) => /new recovery codes/i.test(m.subject));
  });

  it("turns off only with the password and a current code, then forgets the factor and its codes", async () => {
    const { user, cookie, password, email } = await createVerifiedUser(t.database);
    const { secret } = await enrolTotp(t.app, cookie);
    const code = await freshTotpCode(t.database, user.id, secret);
    const badPassword = await post("/api/auth/totp/disable", cookie, { password: "nope-nope-nope", code });
    expect(badPassword.statusCode).toBe(400);
    expect(badPassword.json()).toMatchObject({ passwordWrong: true });
    const badCode = await post("/api/auth/totp/disable", cookie, {
      password,
      code: code === "000000" ? "111111" : "000000",
    });
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json()).toMatchObject({ secondFactorInvalid: true });
    const missingCode = await post("/api/auth/totp/disable", cookie, { password });
    expect(missingCode.statusCode).toBe(400);
    expect((await status(cookie)).enabled).toBe(true);

    const ok = await post("/api/auth/totp/disable", cookie, { password, code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await status(cookie)).toMatchObject({ enabled: false, recoveryCodesLeft: 0, methods: [] });
    expect(await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual(
      [],
    );
    await sink.waitForMail(email, (m) => /turned off/i.test(m.subject));
    const again = await post("/api/auth/totp/disable", cookie, { password, code: totpCode(secret) });
    expect(again.statusCode).toBe(409);
  });

  it("turns off with a recovery code instead of the app", async () => {
    const { cookie, password } = await createVerifiedUser(t.database);
    const { recoveryCodes: codes } = await enrolTotp(t.app, cookie);
    const ok = await post("/api/auth/totp/disable", cookie, { password, code: codes[3] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await status(cookie)).enabled).toBe(false);
  });
});
