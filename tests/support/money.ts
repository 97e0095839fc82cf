import { randomBytes } from "node:crypto";
import { afterEach, expect } from "vitest";
import type { KycStatus } from "@/contract/kyc";
import type { Database } from "@/server/db/client";
import { accountRequests, kycApplications } from "@/server/db/schema";
import { verifyLedger } from "@/server/lib/ledger";
import type { TestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, type TestUserInput } from "@/tests/support/users";

/** A KYC application row in `status` for `customer`, written directly (a reviewed one carries reviewedAt). */
export async function insertKycApplication(
  database: Database,
  customer: SignedInUser,
  status: KycStatus,
): Promise<string> {
  const [kyc] = await database.db
    .insert(kycApplications)
    .values({
      userId: customer.user.id,
      accountType: "personal",
      firstName: customer.user.firstName,
      lastName: customer.user.lastName,
      street: "1 Main St",
      city: "New York",
      state: "NY",
      zipCode: "10001",
      address: "1 Main St, New York, NY 10001",
      ssnCiphertext: "fixture",
      ssnIndex: randomBytes(16).toString("hex"),
      ssnLast4: "1234",
      status,
      reviewedAt: status === "approved" ? new Date() : null,
    })
    .returning({ id: kycApplications.id });
  return kyc!.id;
}

/**
 * A customer whose KYC and checking account are approved, so the send-money gate is open. The onboarding
 * rows are written directly: these tests are about money, and the onboarding API has its own tests.
 */
export async function createApprovedCustomer(
  database: Database,
  input: TestUserInput = {},
): Promise<SignedInUser> {
  const customer = await createVerifiedUser(database, input);
  const kycId = await insertKycApplication(database, customer, "approved");
  await database.db.insert(accountRequests).values({
    userId: customer.user.id,
    kycApplicationId: kycId,
    accountType: "personal",
    status: "approved",
    accountNumber: String(100_000_000 + Math.floor(Math.random() * 899_999_999)),
    routingNumber: "021000021",
    approvedAt: new Date(),
  });
  return customer;
}

/** An approved customer with `amount` credited through the admin desk by `admin`. */
export async function createFundedCustomer(t: TestApp, admin: SignedInUser, amount: string) {
  const customer = await createApprovedCustomer(t.database);
  await fundCustomer(t, admin, customer.user.id, amount);
  return customer;
}

/** A second finance member per test app: the checker fundCustomer's large credits need. */
const checkers = new WeakMap<TestApp, Promise<SignedInUser>>();
function checkerFor(t: TestApp): Promise<SignedInUser> {
  if (!checkers.has(t)) checkers.set(t, createVerifiedUser(t.database, { staffRoles: ["finance"] }));
  return checkers.get(t)!;
}

/** A second staff member approves the approval a 202 answer names (finance by default); answers the approve call. */
export async function approveAsSecond(t: TestApp, pending: { json(): unknown }, checker?: SignedInUser) {
  const approver = checker ?? (await checkerFor(t));
  const { approval } = pending.json() as { approval: { id: string } };
  return t.app.inject({
    method: "POST",
    url: `/api/admin/approvals/${approval.id}/approve`,
    headers: { cookie: approver.cookie },
    payload: {},
  });
}

/**
 * Credits a customer through the admin desk (incoming payment created as completed). Above APPROVAL_THRESHOLD
 * that is maker-checker: the admin's request answers 202 and a second finance member approves it. The funding
 * is then dated a day back in the journal, so it stays out of the admin's and the customer's 24-hour credit
 * windows (decision 017): a funded customer is one who had the money before today.
 */
export async function fundCustomer(t: TestApp, admin: SignedInUser, userId: string, amount: string) {
  const funded = await creditThroughDesk(t, admin, userId, amount);
  await t.database.query(
    `update journal_entries set created_at = created_at - interval '25 hours'
       where reference_type = 'incoming_payment' and reference_id = $1`,
    [funded.payment.id],
  );
  return funded;
}

async function creditThroughDesk(t: TestApp, admin: SignedInUser, userId: string, amount: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/incoming-payments",
    headers: { cookie: admin.cookie },
    payload: { userId, amount, status: "completed", reason: "Test funding" },
  });
  if (res.statusCode === 202) {
    const checker = await checkerFor(t);
    const approved = await t.app.inject({
      method: "POST",
      url: `/api/admin/approvals/${res.json().approval.id}/approve`,
      headers: { cookie: checker.cookie },
      payload: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    return approved.json().result;
  }
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** DESIGN's invariant, asserted at the end of every money test. */
export async function expectLedgerClean(database: Database) {
  const report = await verifyLedger(database.db);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
}

/** afterEach test of the file: the ledger invariant holds. */
export function expectLedgerCleanAfterEach(t: TestApp) {
  afterEach(async () => {
    await expectLedgerClean(t.database);
  });
}

export const ETH_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";

/**
 * POST /api/transfer/request as the send-money form does, to Sam Lee's ETH address; `body` adds the amount
 * (no default: some tests leave it out on purpose) and overrides the rest.
 */
export const requestTransfer = (
  app: TestApp["app"],
  who: SignedInUser,
  body: Record<string, unknown>,
  idempotencyKey?: string,
) =>
  app.inject({
    method: "POST",
    url: "/api/transfer/request",
    headers: { cookie: who.cookie, ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}) },
    payload: {
      recipientName: "Sam Lee",
      purpose: "Dinner at a restaurant",
      paymentMethod: "crypto",
      cryptoAddress: ETH_ADDRESS,
      ...body,
    },
  });
