import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ACCOUNT_NUMBER_MAX,
  ACCOUNT_NUMBER_MIN,
  DEFAULT_ROUTING_NUMBER,
  ONBOARDING_ADMIN_MESSAGES,
} from "@/contract/admin-onboarding";
import { auditLog } from "@/server/db/schema";
import { applyWithLicence, ssnSequence } from "@/tests/support/kyc";
import { setUpSmtpSink } from "@/tests/support/smtp-sink";
import { setUpTestApp } from "@/tests/support/test-app";
import {
  createVerifiedUser,
  type SignedInUser,
  setUpAdminUser,
  setUpVerifiedUser,
} from "@/tests/support/users";
import { onboardingView } from "@/web/components/dashboard/onboarding-steps";

const sink = setUpSmtpSink();
const t = setUpTestApp(() => ({ SMTP_URL: sink.url }));
beforeAll(() => t.app.ready());
const admin = setUpAdminUser(t);
const customer = setUpVerifiedUser(t);

const LABELS = { statusTitle: "Account Request Status", statusMessage: "Your application is being reviewed" };
const freshSsn = ssnSequence(100, 5000);
const GRACE = {
  firstName: "Grace",
  lastName: "Hopper",
  dateOfBirth: "1985-12-10",
  street: "2 Compiler Road",
  city: "Arlington",
  state: "VA",
  zipCode: "22201",
};

/** A customer with a submitted application; returns its KYC and account request ids. */
async function applicant(ssn = freshSsn()) {
  const user = await createVerifiedUser(t.database);
  const { response: res } = await applyWithLicence(t.app, user.cookie, { ...GRACE, ssn });
  if (res.statusCode !== 200) throw new Error(`apply failed: ${res.statusCode} ${res.body}`);
  await sink.waitForMail(user.email, (m) => /received your/i.test(m.subject));
  return { user, kycId: res.json().kyc.id as string, requestId: res.json().accountRequest.id as string };
}

/** An applicant whose identity check the admin has approved: their account request may open. */
async function verifiedApplicant() {
  const applied = await applicant();
  const res = await as(admin, "PUT", `/api/admin/kyc/${applied.kycId}/approve`, {});
  if (res.statusCode !== 200) throw new Error(`KYC approval failed: ${res.statusCode} ${res.body}`);
  return applied;
}

const as = (who: SignedInUser | null, method: "GET" | "PUT" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who ? { cookie: who.cookie } : {}, ...(payload ? { payload } : {}) });

const auditFor = async (targetId: string) =>
  (await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId))).map((a) => a.action);

describe("admin onboarding routes are for admins only", () => {
  const id = "00000000-0000-4000-8000-000000000000";
  const routes: ["GET" | "PUT", string, object?][] = [
    ["GET", "/api/admin/kyc-applications"],
    ["GET", "/api/admin/account-requests"],
    ["PUT", `/api/admin/kyc/${id}/approve`, {}],
    ["PUT", `/api/admin/kyc/${id}/reject`, { notes: "x" }],
    ["PUT", `/api/admin/kyc/${id}/reset`],
    ["PUT", `/api/admin/account-requests/${id}`, { status: "approved" }],
  ];

  it.each(routes)("%s %s: 401 signed out, 403 for a customer", async (method, url, payload) => {
    expect((await as(null, method, url, payload)).statusCode).toBe(401);
    const res = await as(customer, method, url, payload);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("FORBIDDEN");
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    expect((await as(admin, "PUT", `/api/admin/kyc/${id}/approve`, {})).statusCode).toBe(404);
    expect(
      (await as(admin, "PUT", `/api/admin/account-requests/${id}`, { status: "approved" })).statusCode,
    ).toBe(404);
    expect((await as(admin, "PUT", "/api/admin/kyc/not-a-uuid/approve", {})).statusCode).toBe(400);
  });
});

describe("GET /api/admin/kyc-applications and /account-requests", () => {
  it("lists applications newest first with the applicant, SSN masked", async () => {
    const { user, kycId, requestId } = await applicant("555-66-7777");
    const res = await as(admin, "GET", "/api/admin/kyc-applications");
    expect(res.statusCode).toBe(200);
    const item = res.json().items.find((k: { id: string }) => k.id === kycId);
    expect(item).toMatchObject({
      ssn: "***-**-7777",
      status: "pending",
      isCurrent: true,
      user: { id: user.user.id, email: user.email },
    });
    expect(res.body).not.toContain("555667777");
    expect(res.body).not.toMatch(/ssnCiphertext|ssnIndex|ssn_index/);

    const requests = await as(admin, "GET", "/api/admin/account-requests");
    expect(requests.statusCode).toBe(200);
    expect(requests.json().items[0]).toMatchObject({
      id: requestId,
      status: "pending",
      adminNotes: null,
      isCurrent: true,
    });
  });
});

describe("KYC decisions (the state machine)", () => {
  it("approves a pending application, audited, and mails the user", async () => {
    const { user, kycId } = await applicant();
    const res = await as(admin, "PUT", `/api/admin/kyc/${kycId}/approve`, { notes: "All good" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: "KYC status updated successfully",
      kyc: { status: "approved", adminNotes: "All good" },
    });
    expect(res.json().kyc.reviewedAt).toBeTruthy();
    expect(await auditFor(kycId)).toEqual(["kyc.submit", "kyc.approve"]);
    const mail = await sink.waitForMail(user.email, (m) => /approved/i.test(m.subject));
    expect(mail.text).toContain("Congratulations! Your account has been approved");
  });

  it("approves with no body at all", async () => {
    const { kycId } = await applicant();
    expect((await as(admin, "PUT", `/api/admin/kyc/${kycId}/approve`)).statusCode).toBe(200);
  });

  it("needs a non-blank reason to reject, then mails it", async () => {
    const { user, kycId } = await applicant();
    for (const payload of [undefined, {}, { notes: "" }, { notes: "   " }, { notes: null }]) {
      const res = await as(admin, "PUT", `/api/admin/kyc/${kycId}/reject`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(ONBOARDING_ADMIN_MESSAGES.rejectReasonRequired);
    }
    const res = await as(admin, "PUT", `/api/admin/kyc/${kycId}/reject`, { notes: "  Document expired  " });
    expect(res.statusCode).toBe(200);
    expect(res.json().kyc).toMatchObject({ status: "rejected", adminNotes: "Document expired" });
    const mail = await sink.waitForMail(user.email, (m) => /not approved/i.test(m.subject));
    expect(mail.text).toContain("Document expired");
    expect(mail.text).toContain("You can submit a new application.");
  });

  it("resets only a rejected application to pending", async () => {
    const { kycId } = await applicant();
    const early = await as(admin, "PUT", `/api/admin/kyc/${kycId}/reset`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(ONBOARDING_ADMIN_MESSAGES.onlyRejectedReset);
    await as(admin, "PUT", `/api/admin/kyc/${kycId}/reject`, { notes: "Try again" });
    // Maker-checker (decision 007): the reset waits for a second compliance member, who approves it.
    const asked = await as(admin, "PUT", `/api/admin/kyc/${kycId}/reset`, {
      reason: "Customer sent new papers",
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const checker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    const approved = await as(
      checker,
      "POST",
      `/api/admin/approvals/${asked.json().approval.id}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const res = { json: () => approved.json().result };
    expect(res.json()).toMatchObject({
      message: "KYC status reset to pending successfully",
      kyc: { status: "pending" },
    });
    expect(res.json().kyc.reviewedAt).toBeNull();
    expect(await auditFor(kycId)).toEqual(["kyc.submit", "kyc.reject", "kyc.reset"]);
  });

  it("refuses every move the state machine does not have", async () => {
    const approved = await applicant();
    await as(admin, "PUT", `/api/admin/kyc/${approved.kycId}/approve`, {});
    const rejected = await applicant();
    await as(admin, "PUT", `/api/admin/kyc/${rejected.kycId}/reject`, { notes: "No" });
    const cases: [string, string, object | undefined, string][] = [
      [approved.kycId, "approve", {}, ONBOARDING_ADMIN_MESSAGES.onlyPendingApprove],
      [approved.kycId, "reject", { notes: "late" }, ONBOARDING_ADMIN_MESSAGES.onlyPendingReject],
      [approved.kycId, "reset", undefined, ONBOARDING_ADMIN_MESSAGES.onlyRejectedReset],
      [rejected.kycId, "approve", {}, ONBOARDING_ADMIN_MESSAGES.onlyPendingApprove],
      [rejected.kycId, "reject", { notes: "again" }, ONBOARDING_ADMIN_MESSAGES.onlyPendingReject],
    ];
    for (const [id, action, payload, message] of cases) {
      const res = await as(admin, "PUT", `/api/admin/kyc/${id}/${action}`, payload);
      expect(res.statusCode, `${action}`).toBe(409);
      expect(res.json().message).toBe(message);
    }
    expect(await auditFor(approved.kycId)).toEqual(["kyc.submit", "kyc.approve"]);
  });

  it("refuses to decide on an application the user has since replaced", async () => {
    const { user, kycId } = await applicant();
    await as(admin, "PUT", `/api/admin/kyc/${kycId}/reject`, { notes: "Blurry" });
    const { response: again } = await applyWithLicence(t.app, user.cookie, { ...GRACE, ssn: freshSsn() });
    expect(again.statusCode).toBe(200);
    const res = await as(admin, "PUT", `/api/admin/kyc/${kycId}/reset`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(ONBOARDING_ADMIN_MESSAGES.superseded);
    const list = (await as(admin, "GET", "/api/admin/kyc-applications")).json().items;
    expect(list.find((k: { id: string }) => k.id === kycId).isCurrent).toBe(false);
  });
});

describe("PUT /api/admin/account-requests/{id}", () => {
  it("approves with a random 9-digit account number, the default routing number and approvedAt", async () => {
    const { user, requestId } = await verifiedApplicant();
    const res = await as(admin, "PUT", `/api/admin/account-requests/${requestId}`, {
      status: "approved",
      statusMessage: "Welcome aboard",
      adminNotes: "Checked by phone",
      approvedAt: "1999-01-01T00:00:00Z",
    });
    expect(res.statusCode).toBe(200);
    const { message, accountRequest } = res.json();
    expect(message).toBe("Account request updated successfully");
    expect(accountRequest).toMatchObject({
      status: "approved",
      statusMessage: "Welcome aboard",
      adminNotes: "Checked by phone",
      routingNumber: DEFAULT_ROUTING_NUMBER,
    });
    const number = Number(accountRequest.accountNumber);
    expect(accountRequest.accountNumber).toMatch(/^\d{9}$/);
    expect(number).toBeGreaterThanOrEqual(ACCOUNT_NUMBER_MIN);
    expect(number).toBeLessThanOrEqual(ACCOUNT_NUMBER_MAX);
    expect(Math.abs(new Date(accountRequest.approvedAt).getTime() - Date.now())).toBeLessThan(60_000);

    const mine = await t.app.inject({
      method: "GET",
      url: "/api/kyc/status",
      headers: { cookie: user.cookie },
    });
    expect(mine.json().accountRequest).toMatchObject({
      status: "approved",
      accountNumber: accountRequest.accountNumber,
    });
    expect(mine.json().accountRequest).not.toHaveProperty("adminNotes");
    const mail = await sink.waitForMail(user.email, (m) => /account is open/i.test(m.subject));
    expect(mail.text).toContain(accountRequest.accountNumber.slice(-4));
    expect(mail.text).not.toContain(accountRequest.accountNumber);
    expect(await auditFor(requestId)).toEqual(["account_request.update"]);
  });

  it("uses a given account and routing number, and refuses one already in use", async () => {
    const first = await verifiedApplicant();
    const res = await as(admin, "PUT", `/api/admin/account-requests/${first.requestId}`, {
      status: "approved",
      accountNumber: 123456789,
      routingNumber: "011000015",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().accountRequest).toMatchObject({
      accountNumber: "123456789",
      routingNumber: "011000015",
    });

    const second = await verifiedApplicant();
    const taken = await as(admin, "PUT", `/api/admin/account-requests/${second.requestId}`, {
      status: "approved",
      accountNumber: "123456789",
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(ONBOARDING_ADMIN_MESSAGES.accountNumberTaken);
    const list = (await as(admin, "GET", "/api/admin/account-requests")).json().items;
    expect(list.find((r: { id: string }) => r.id === second.requestId).status).toBe("pending");
  });

  it("validates status, account number and routing number", async () => {
    const { requestId } = await applicant();
    const cases: [object, string][] = [
      [{ status: "open" }, ONBOARDING_ADMIN_MESSAGES.statusInvalid],
      [{}, ONBOARDING_ADMIN_MESSAGES.statusInvalid],
      [{ status: "approved", accountNumber: "12345678" }, ONBOARDING_ADMIN_MESSAGES.accountNumberInvalid],
      [{ status: "approved", accountNumber: "012345678" }, ONBOARDING_ADMIN_MESSAGES.accountNumberInvalid],
      [{ status: "approved", accountNumber: "1234567890" }, ONBOARDING_ADMIN_MESSAGES.accountNumberInvalid],
      [{ status: "approved", routingNumber: "02100002" }, ONBOARDING_ADMIN_MESSAGES.routingNumberInvalid],
      [{ status: "approved", statusMessage: "x".repeat(1001) }, ONBOARDING_ADMIN_MESSAGES.tooLong],
    ];
    for (const [payload, message] of cases) {
      const res = await as(admin, "PUT", `/api/admin/account-requests/${requestId}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await auditFor(requestId)).toEqual([]);
  });

  it("allows any status, and keeps the account number once assigned", async () => {
    const { user, requestId } = await verifiedApplicant();
    const put = (payload: object) => as(admin, "PUT", `/api/admin/account-requests/${requestId}`, payload);
    expect((await put({ status: "in_review" })).json().accountRequest.accountNumber).toBeNull();
    const approved = (await put({ status: "approved" })).json().accountRequest;
    const rejected = await put({ status: "rejected", statusMessage: "Closed after review" });
    expect(rejected.json().accountRequest).toMatchObject({
      status: "rejected",
      accountNumber: approved.accountNumber,
    });
    const mail = await sink.waitForMail(user.email, (m) => /checking account application/i.test(m.subject));
    expect(mail.text).toContain("Closed after review");
    const again = (await put({ status: "approved", accountNumber: "987654321" })).json().accountRequest;
    expect(again.accountNumber).toBe(approved.accountNumber);
    // approvedAt is the latest move into approved.
    expect(new Date(again.approvedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(approved.approvedAt).getTime(),
    );
    expect((await put({ status: "pending", statusMessage: null })).json().accountRequest).toMatchObject({
      status: "pending",
      statusMessage: null,
    });
    expect(await auditFor(requestId)).toHaveLength(5);
  });

  it("gives every approved account a different number", async () => {
    const numbers = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { requestId } = await verifiedApplicant();
      const res = await as(admin, "PUT", `/api/admin/account-requests/${requestId}`, { status: "approved" });
      numbers.add(res.json().accountRequest.accountNumber);
    }
    expect(numbers.size).toBe(5);
  });
});

describe("an account opens only for a verified identity (docs/architecture.md 'Staff roles')", () => {
  it("refuses to approve the account request while the identity check is pending or rejected, writing and mailing nothing", async () => {
    const { user, kycId, requestId } = await applicant();
    const approve = () =>
      as(admin, "PUT", `/api/admin/account-requests/${requestId}`, { status: "approved" });
    const whilePending = await approve();
    expect(whilePending.statusCode).toBe(409);
    expect(whilePending.json()).toMatchObject({
      message: ONBOARDING_ADMIN_MESSAGES.identityNotApproved,
      identityNotApproved: true,
      status: "pending",
    });
    await as(admin, "PUT", `/api/admin/kyc/${kycId}/reject`, { notes: "The licence photo is blurred" });
    await sink.waitForMail(user.email, (m) => /not approved/i.test(m.text));
    const whileRejected = await approve();
    expect(whileRejected.statusCode).toBe(409);
    expect(whileRejected.json()).toMatchObject({ identityNotApproved: true, status: "rejected" });
    // The admin list tells the Manage dialog why.
    const listed = (await as(admin, "GET", "/api/admin/account-requests?limit=200")).json().items;
    expect(listed.find((r: { id: string }) => r.id === requestId)).toMatchObject({
      status: "pending",
      kycStatus: "rejected",
      accountNumber: null,
    });
    expect(await auditFor(requestId)).toEqual([]);
    const mine = (await as(user, "GET", "/api/kyc/status")).json();
    expect(mine.accountRequest).toMatchObject({ status: "pending", accountNumber: null });
    // The mail outbox has had time to send the rejection mail above: no "account is open" mail went out.
    expect(sink.messages.some((m) => m.to.includes(user.email) && /account is open/i.test(m.subject))).toBe(
      false,
    );
  });

  it("after a reset to pending, the customer's onboarding says the identity check is pending, not verified", async () => {
    const { user, kycId, requestId } = await verifiedApplicant();
    const opened = await as(admin, "PUT", `/api/admin/account-requests/${requestId}`, { status: "approved" });
    expect(opened.statusCode).toBe(200);
    // An application rejected after the account opened (as data from before this rule may be), then reopened.
    await t.database.query("update kyc_applications set status = 'rejected' where id = $1", [kycId]);
    const asked = await as(admin, "PUT", `/api/admin/kyc/${kycId}/reset`, { reason: "New papers" });
    expect(asked.statusCode, asked.body).toBe(202);
    const checker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
    const reset = await as(checker, "POST", `/api/admin/approvals/${asked.json().approval.id}/approve`, {});
    expect(reset.statusCode, reset.body).toBe(200);
    const preview = (await as(admin, "GET", `/api/admin/users/${user.user.id}/onboarding`)).json();
    expect(preview).toMatchObject({ kyc: { status: "pending" }, accountRequest: { status: "approved" } });
    const mine = (await as(user, "GET", "/api/kyc/status")).json();
    expect(mine.kyc.status).toBe("pending");
    // The dashboard's timeline is drawn from this state: the identity step follows the KYC status alone.
    expect(onboardingView(preview, LABELS).steps[0].badge.label).toBe("Pending Review");
  });
});

describe("GET /api/admin/users/:userId/onboarding (the dashboard preview's real state)", () => {
  it("shows a rejected customer's real state and reason, without SSN, documents or the account number", async () => {
    const { user, kycId } = await applicant();
    const url = `/api/admin/users/${user.user.id}/onboarding`;
    const pending = await as(admin, "GET", url);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toMatchObject({
      kyc: { status: "pending", adminNotes: null, reviewedAt: null },
      accountRequest: { status: "pending", accountNumberLast4: null },
    });

    const reason = "The licence photo is blurred";
    expect((await as(admin, "PUT", `/api/admin/kyc/${kycId}/reject`, { notes: reason })).statusCode).toBe(
      200,
    );
    const rejected = await as(admin, "GET", url);
    expect(rejected.json().kyc).toMatchObject({ status: "rejected", adminNotes: reason });
    expect(Object.keys(rejected.json().kyc).sort()).toEqual([
      "adminNotes",
      "reviewedAt",
      "status",
      "submittedAt",
    ]);
    expect(rejected.body).not.toMatch(/ssn|drivingLicense|objects\//i);
    // The customer's own status agrees with what the admin previews.
    const own = await as(user, "GET", "/api/kyc/status");
    expect(own.json().kyc.status).toBe("rejected");
    expect(own.json().kyc.adminNotes).toBe(reason);
  });

  it("is for admins only, 404 for an unknown user and 400 for a malformed id", async () => {
    const url = `/api/admin/users/${customer.user.id}/onboarding`;
    expect((await as(null, "GET", url)).statusCode).toBe(401);
    expect((await as(customer, "GET", url)).statusCode).toBe(403);
    const none = await as(admin, "GET", url);
    expect(none.json()).toEqual({ kyc: null, accountRequest: null });
    const unknown = await as(
      admin,
      "GET",
      "/api/admin/users/00000000-0000-4000-8000-000000000000/onboarding",
    );
    expect(unknown.statusCode).toBe(404);
    expect((await as(admin, "GET", "/api/admin/users/nope/onboarding")).statusCode).toBe(400);
  });
});
