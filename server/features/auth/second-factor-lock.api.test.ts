import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SECURITY_MESSAGES } from "@/contract/security";
import { SECOND_FACTOR_LOCK_FAILURES } from "@/server/features/auth/second-factor-lock";
import { clearSessionCache } from "@/server/lib/session";
import { createApprovedCustomer, ETH_ADDRESS, expectLedgerClean, fundCustomer } from "@/tests/support/money";
import { enrolTotp, freshTotpCode, totpCode } from "@/tests/support/second-factor";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser } from "@/tests/support/users";

// Decision 018: wrong second-factor codes are counted per account across every place a code is checked.
const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, RATE_LIMIT_SCALE: "10" }));
const admin = setUpAdminUser(t);

const NEW_PASSWORD = "Harbor-Violet-83-compass";

/** A 6-digit code the authenticator shows at none of the steps the server accepts (now, ±1). */
function wrongCode(secret: string): string {
  const accepted = new Set([totpCode(secret, -1), totpCode(secret), totpCode(secret, 1)]);
  let n = Number(totpCode(secret));
  do n = (n + 1) % 1_000_000;
  while (accepted.has(String(n).padStart(6, "0")));
  return String(n).padStart(6, "0");
}

const cookieValue = (res: { headers: Record<string, unknown> }, name: string) => {
  const all = [res.headers["set-cookie"] as string | string[] | undefined].flat().filter(Boolean) as string[];
  const found = all.find((c) => c.startsWith(`${name}=`));
  return found ? found.split(";")[0]! : undefined;
};

/** A browser: a password step, then the code; keeps its device cookie like a real one. */
function browser(remoteAddress: string) {
  let device: string | undefined;
  return {
    get device() {
      return device;
    },
    async password(email: string, password: string) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email, password },
        remoteAddress,
        headers: device ? { cookie: device } : {},
      });
      expect(res.statusCode, res.body).toBe(200);
      return cookieValue(res, "pillar_2fa");
    },
    async verify(pending: string | undefined, secondFactor: object) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/login/verify",
        payload: { secondFactor },
        remoteAddress,
        headers: { cookie: [pending, device].filter(Boolean).join("; ") },
      });
      device = cookieValue(res, "pillar_device") ?? device;
      return res;
    },
  };
}

const stepUp = (cookie: string, secondFactor: object) =>
  t.app.inject({ method: "POST", url: "/api/auth/step-up", headers: { cookie }, payload: { secondFactor } });

const transfer = (cookie: string, secondFactor: object) =>
  t.app.inject({
    method: "POST",
    url: "/api/transfer/request",
    headers: { cookie, "idempotency-key": randomUUID() },
    payload: {
      amount: "25",
      recipientName: "Grace Hopper",
      purpose: "Rent",
      paymentMethod: "crypto",
      cryptoAddress: ETH_ADDRESS,
      secondFactor,
    },
  });

async function guardOf(userId: string) {
  const [row] = await t.database.query<{ failures: number; locked: boolean }>(
    "select failures, locked_at is not null as locked from second_factor_guards where user_id = $1",
    [userId],
  );
  return row ?? { failures: 0, locked: false };
}

const lockMails = async (email: string) =>
  (
    await t.database.query<{ n: number }>(
      "select count(*)::int as n from mail_outbox where to_address = $1 and subject like '%codes are locked%'",
      [email],
    )
  )[0]!.n;

/** A funded customer with the authenticator on, and a home browser that has signed in with a code once. */
async function customerAtHome(address: string) {
  const customer = await createApprovedCustomer(t.database);
  await fundCustomer(t, admin, customer.user.id, "500");
  const factor = await enrolTotp(t.app, customer.cookie);
  const home = browser(address);
  const pending = await home.password(customer.email, customer.password);
  const signedIn = await home.verify(pending, {
    method: "totp",
    code: await freshTotpCode(t.database, customer.user.id, factor.secret),
  });
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  return { ...customer, ...factor, home };
}

describe("consecutive wrong second-factor codes lock the codes of the account", () => {
  it("locks after wrong codes spread over sign-in, step-up and transfers; the right code is then refused unchecked", async () => {
    const owner = await customerAtHome("10.60.0.1");
    const bystander = await customerAtHome("10.60.0.2");
    const wrong = { method: "totp", code: wrongCode(owner.secret) };
    const attacker = browser("203.0.113.60");

    // Four at one pending sign-in, then a fresh password step: a new pending login does not start over.
    let pending = await attacker.password(owner.email, owner.password);
    for (let i = 0; i < 4; i++) expect((await attacker.verify(pending, wrong)).statusCode).toBe(400);
    pending = await attacker.password(owner.email, owner.password);
    expect((await attacker.verify(pending, wrong)).statusCode).toBe(400);
    // With the owner's session (stolen): step-ups and transfers count against the same account.
    for (let i = 0; i < 2; i++)
      expect((await stepUp(owner.cookie, wrong)).json()).toMatchObject({ secondFactorInvalid: true });
    for (let i = 0; i < 2; i++) {
      const res = await transfer(owner.cookie, wrong);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ secondFactorInvalid: true });
    }
    expect(await guardOf(owner.user.id)).toEqual({
      failures: SECOND_FACTOR_LOCK_FAILURES - 1,
      locked: false,
    });
    expect(await lockMails(owner.email)).toBe(0);

    // The tenth wrong code locks.
    expect((await stepUp(owner.cookie, wrong)).statusCode).toBe(400);
    expect(await guardOf(owner.user.id)).toEqual({ failures: SECOND_FACTOR_LOCK_FAILURES, locked: true });

    // The right code, anywhere, is refused without being checked (its step is not spent).
    const right = () => freshTotpCode(t.database, owner.user.id, owner.secret);
    const locked = await stepUp(owner.cookie, { method: "totp", code: await right() });
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toMatchObject({
      message: SECURITY_MESSAGES.secondFactorLocked,
      code: "FORBIDDEN",
      secondFactorLocked: true,
    });
    expect(locked.json().message).toMatch(/check your e-mail/i);
    pending = await attacker.password(owner.email, owner.password);
    const atLogin = await attacker.verify(pending, { method: "totp", code: await right() });
    expect(atLogin.statusCode).toBe(403);
    expect(atLogin.json()).toMatchObject({ secondFactorLocked: true });
    const before = await t.database.query("select id from transfer_requests where user_id = $1", [
      owner.user.id,
    ]);
    const atTransfer = await transfer(owner.cookie, { method: "totp", code: await right() });
    expect(atTransfer.statusCode).toBe(403);
    expect(atTransfer.json()).toMatchObject({ secondFactorLocked: true });
    expect(
      await t.database.query("select id from transfer_requests where user_id = $1", [owner.user.id]),
    ).toEqual(before);
    const disable = await t.app.inject({
      method: "POST",
      url: "/api/auth/totp/disable",
      headers: { cookie: owner.cookie },
      payload: { password: owner.password, code: await right() },
    });
    expect(disable.statusCode).toBe(403);
    expect(disable.json()).toMatchObject({ secondFactorLocked: true });

    // The owner is mailed once, at the lock, with the "This wasn't me" link.
    const mail = await sink.waitForMail(owner.email, (m) => m.subject.includes("codes are locked"));
    expect(mail.text).toContain(`${SECOND_FACTOR_LOCK_FAILURES} wrong codes in a row`);
    expect(mail.text).toMatch(/this-wasnt-me#token=[A-Za-z0-9_-]{43}/);
    expect(mail.text).toContain("Forgot password?");
    expect(await lockMails(owner.email)).toBe(1);

    // Per account: someone else's codes still work.
    const other = await stepUp(bystander.cookie, {
      method: "totp",
      code: await freshTotpCode(t.database, bystander.user.id, bystander.secret),
    });
    expect(other.statusCode, other.body).toBe(200);
    await expectLedgerClean(t.database);
  });

  it("lets the owner's known browser in with a recovery code while locked, and no other browser", async () => {
    const owner = await customerAtHome("10.61.0.1");
    const wrong = { method: "totp", code: wrongCode(owner.secret) };
    for (let i = 0; i < SECOND_FACTOR_LOCK_FAILURES; i++) await stepUp(owner.cookie, wrong);
    expect((await guardOf(owner.user.id)).locked).toBe(true);

    const stranger = browser("203.0.113.61");
    const strangerPending = await stranger.password(owner.email, owner.password);
    const refused = await stranger.verify(strangerPending, {
      method: "recovery",
      code: owner.recoveryCodes[0],
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ secondFactorLocked: true });

    const homePending = await owner.home.password(owner.email, owner.password);
    const home = await owner.home.verify(homePending, { method: "recovery", code: owner.recoveryCodes[0] });
    expect(home.statusCode, home.body).toBe(200);
    // Getting in with a recovery code does not lift the lock: only the e-mail proof does.
    expect((await guardOf(owner.user.id)).locked).toBe(true);
  });

  it("unlocks once the owner proves the e-mail with a password reset code; the code works once", async () => {
    const owner = await customerAtHome("10.62.0.1");
    const wrong = { method: "totp", code: wrongCode(owner.secret) };
    for (let i = 0; i < SECOND_FACTOR_LOCK_FAILURES; i++) await stepUp(owner.cookie, wrong);
    await sink.waitForMail(owner.email, (m) => m.subject.includes("codes are locked"));

    const forgot = await t.app.inject({
      method: "POST",
      url: "/api/auth/forgot-password",
      payload: { email: owner.email },
      remoteAddress: "10.62.0.2",
    });
    expect(forgot.statusCode).toBe(200);
    const resetMail = await sink.waitForMail(owner.email, (m) => /password reset/i.test(m.subject));
    const reset = (newPassword: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/reset-password",
        payload: { email: owner.email, resetCode: resetMail.code, newPassword },
        remoteAddress: "10.62.0.2",
      });
    expect((await reset(NEW_PASSWORD)).statusCode).toBe(200);
    expect(await guardOf(owner.user.id)).toEqual({ failures: 0, locked: false });
    expect((await reset(`${NEW_PASSWORD}-again`)).statusCode).toBe(400);

    clearSessionCache();
    const pending = await owner.home.password(owner.email, NEW_PASSWORD);
    const signedIn = await owner.home.verify(pending, {
      method: "totp",
      code: await freshTotpCode(t.database, owner.user.id, owner.secret),
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it("starts the count again after a right code, and only a right code resets it", async () => {
    const owner = await customerAtHome("10.63.0.1");
    const wrong = { method: "totp", code: wrongCode(owner.secret) };
    for (let i = 0; i < SECOND_FACTOR_LOCK_FAILURES - 1; i++) await stepUp(owner.cookie, wrong);
    // A new password step is no proof: the count stays.
    const attacker = browser("203.0.113.63");
    await attacker.password(owner.email, owner.password);
    expect((await guardOf(owner.user.id)).failures).toBe(SECOND_FACTOR_LOCK_FAILURES - 1);

    const right = await stepUp(owner.cookie, {
      method: "totp",
      code: await freshTotpCode(t.database, owner.user.id, owner.secret),
    });
    expect(right.statusCode, right.body).toBe(200);
    expect(await guardOf(owner.user.id)).toEqual({ failures: 0, locked: false });
    for (let i = 0; i < SECOND_FACTOR_LOCK_FAILURES - 1; i++) await stepUp(owner.cookie, wrong);
    expect(await guardOf(owner.user.id)).toEqual({
      failures: SECOND_FACTOR_LOCK_FAILURES - 1,
      locked: false,
    });
  });

  it("keeps the per-minute limit on step-up proofs", async () => {
    const owner = await customerAtHome("10.64.0.1");
    const wrong = { method: "totp", code: wrongCode(owner.secret) };
    const statuses: number[] = [];
    // 10 a minute per user, times RATE_LIMIT_SCALE=10.
    for (let i = 0; i < 101; i++) statuses.push((await stepUp(owner.cookie, wrong)).statusCode);
    expect(statuses.at(-1)).toBe(429);
  });
});
