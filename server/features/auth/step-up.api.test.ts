import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SECURITY_MESSAGES } from "@/contract/security";
import { authChallenges } from "@/server/db/schema";
import { createSession } from "@/server/lib/session";
import { createApprovedCustomer, expectLedgerClean } from "@/tests/support/money";
import { enrolTotp, postJson, stepUpWithTotp } from "@/tests/support/second-factor";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import { createAdminUser, createVerifiedUser } from "@/tests/support/users";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url, ADMIN_REQUIRE_2FA: "1", RATE_LIMIT_SCALE: "10" }));

const get = (url: string, cookie: string) => t.app.inject({ method: "GET", url, headers: { cookie } });
const put = (url: string, cookie: string, payload: object) =>
  t.app.inject({ method: "PUT", url, headers: { cookie }, payload });

describe("step-up for security changes", () => {
  it("asks for a fresh proof before changing the password when a factor is on", async () => {
    const { user, cookie, email, password } = await createVerifiedUser(t.database);
    const { secret } = await enrolTotp(t.app, cookie);
    expect((await postJson(t.app, "/api/auth/send-password-otp", cookie)).statusCode).toBe(200);
    const mail = await sink.waitForMail(email, (m) => /password change code/i.test(m.subject));
    const body = { currentPassword: password, newPassword: "Violet-Harbour-58-compass", otpCode: mail.code };
    const refused = await postJson(t.app, "/api/auth/change-password", cookie, body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      stepUpRequired: true,
      methods: ["totp", "recovery"],
      message: SECURITY_MESSAGES.stepUpRequired,
    });
    await stepUpWithTotp(t.app, t.database, { id: user.id, cookie, secret });
    const ok = await postJson(t.app, "/api/auth/change-password", cookie, body);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("lets a step-up lapse after five minutes and keeps it to the session that made it", async () => {
    const { user, cookie } = await createVerifiedUser(t.database);
    const { secret } = await enrolTotp(t.app, cookie);
    await stepUpWithTotp(t.app, t.database, { id: user.id, cookie, secret });
    expect((await postJson(t.app, "/api/auth/recovery-codes", cookie)).statusCode).toBe(200);
    await t.database.db.update(authChallenges).set({ expiresAt: sql`now() - interval '1 second'` });
    const lapsed = await postJson(t.app, "/api/auth/recovery-codes", cookie);
    expect(lapsed.statusCode).toBe(403);
    expect(lapsed.json()).toMatchObject({ stepUpRequired: true });
    // Another session of the same user (opened directly here) does not share this session's step-up.
    await stepUpWithTotp(t.app, t.database, { id: user.id, cookie, secret });
    const { token } = await createSession(t.database.db, { userId: user.id });
    const other = await postJson(t.app, "/api/auth/recovery-codes", `sid=${token}`);
    expect(other.statusCode).toBe(403);
    expect((await postJson(t.app, "/api/auth/recovery-codes", cookie)).statusCode).toBe(200);
  });
});

describe("staff need a second factor (ADMIN_REQUIRE_2FA)", () => {
  it("answers 403 secondFactorRequired to an admin without one, and lets them in after enrolling", async () => {
    const admin = await createAdminUser(t.database);
    const refused = await get("/api/admin/stats", admin.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      secondFactorRequired: true,
      message: SECURITY_MESSAGES.adminSecondFactorRequired,
    });
    // The enrolment routes live outside /api/admin, so the admin can reach them.
    await enrolTotp(t.app, admin.cookie);
    expect((await get("/api/admin/stats", admin.cookie)).statusCode).toBe(200);
    const customer = await createVerifiedUser(t.database);
    const notStaff = await get("/api/admin/stats", customer.cookie);
    expect(notStaff.statusCode).toBe(403);
    expect(notStaff.json().secondFactorRequired).toBeUndefined();
  });

  it("needs a fresh step-up for a balance edit and a credit, and writes nothing without one", async () => {
    const admin = await createAdminUser(t.database);
    const { secret } = await enrolTotp(t.app, admin.cookie);
    const customer = await createApprovedCustomer(t.database);
    const url = `/api/admin/users/${customer.user.id}/balance`;
    const refused = await put(url, admin.cookie, { accountBalance: "250.00" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ stepUpRequired: true });
    const credit = { userId: customer.user.id, amount: "10", description: "Goodwill", status: "completed" };
    const creditRefused = await postJson(t.app, "/api/admin/transactions", admin.cookie, credit);
    expect(creditRefused.statusCode).toBe(403);
    const paymentRefused = await postJson(t.app, "/api/admin/incoming-payments", admin.cookie, {
      userId: customer.user.id,
      amount: "5",
      status: "completed",
    });
    expect(paymentRefused.statusCode).toBe(403);
    const summary = await get(`/api/admin/users/${customer.user.id}`, admin.cookie);
    expect(summary.json().accountBalance).toBe("$0.00");

    await stepUpWithTotp(t.app, t.database, { id: admin.user.id, cookie: admin.cookie, secret });
    // A balance edit is maker-checker (decision 007), so the stepped-up request is accepted for approval
    // (202).
    const ok = await put(url, admin.cookie, { accountBalance: "250.00", reason: "Correction" });
    expect(ok.statusCode, ok.body).toBe(202);
    expect((await postJson(t.app, "/api/admin/transactions", admin.cookie, credit)).statusCode).toBe(201);
    await expectLedgerClean(t.database);
  });

  it("needs a fresh step-up before a checker approves (approvals gets the check from server/app.ts)", async () => {
    const checker = await createAdminUser(t.database);
    const { secret } = await enrolTotp(t.app, checker.cookie);
    await t.database.query("delete from auth_challenges where user_id = $1 and purpose = 'step_up'", [
      checker.user.id,
    ]);
    const url = "/api/admin/approvals/00000000-0000-4000-8000-000000000000/approve";
    const refused = await postJson(t.app, url, checker.cookie, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ stepUpRequired: true });
    await stepUpWithTotp(t.app, t.database, { id: checker.user.id, cookie: checker.cookie, secret });
    // Past the check, the unknown approval is the answer.
    expect((await postJson(t.app, url, checker.cookie, {})).statusCode).toBe(404);
  });
});
