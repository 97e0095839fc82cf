import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { BLOCKED_REPORT_BUSINESS_DAYS, COMPLIANCE_MESSAGES } from "@/contract/compliance";
import { bankToday } from "@/contract/kyc";
import { RECEIPT_MESSAGES, TRANSFER_MESSAGES } from "@/contract/transfers";
import { auditLog, holds, ledgerAccounts, transactions, transferRequests } from "@/server/db/schema";
import { addBusinessDays } from "@/server/features/compliance/business-days";
import { updateTransferStatus } from "@/server/features/transfers/update-transfer-status";
import { createFundedCustomer, expectLedgerClean, requestTransfer } from "@/tests/support/money";
import { LISTED_ETH, listFiles, uploadBody } from "@/tests/support/ofac-files";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);

let maker: SignedInUser;
let checker: SignedInUser;
let finance: SignedInUser;
beforeAll(async () => {
  maker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  checker = await createVerifiedUser(t.database, { staffRoles: ["compliance"] });
  finance = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
  const loaded = await call("POST", "/api/admin/compliance/lists", maker, uploadBody(listFiles()));
  expect(loaded.statusCode, loaded.body).toBe(200);
});

const call = (method: "GET" | "POST" | "PUT", url: string, who: SignedInUser, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload }),
  });

const CASES = "/api/admin/compliance/cases";

/** A funded customer ($500) whose transfer to a listed address waits under review, and the case it opened. */
async function heldTransfer(amount = "100.00") {
  const customer = await createFundedCustomer(t, admin, "500.00");
  const res = await requestTransfer(t.app, customer, { amount, cryptoAddress: LISTED_ETH });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().message).toBe(TRANSFER_MESSAGES.underReview);
  const list = await call("GET", `${CASES}?status=open&limit=200`, maker);
  const found = list
    .json()
    .items.find((c: { customer: { id: string } | null }) => c.customer?.id === customer.user.id);
  return { customer, caseId: found.id as string, transferId: res.json().transferRequest.id as string };
}

async function propose(caseId: string, body: Record<string, unknown>) {
  return call("POST", `${CASES}/${caseId}/decisions`, maker, { note: "Reviewed the evidence", ...body });
}

/** Proposed by one member, approved by another (decision 032). */
async function decide(caseId: string, body: Record<string, unknown>) {
  const proposed = await propose(caseId, body);
  expect(proposed.statusCode, proposed.body).toBe(200);
  const pending = proposed.json().case.decisions.find((d: { status: string }) => d.status === "pending");
  return call("POST", `${CASES}/${caseId}/decisions/${pending.id}/approve`, checker, {});
}

const cancel = (who: SignedInUser, id: string) => call("POST", `/api/transfers/${id}/cancel`, who);
const summary = async (who: SignedInUser) => (await call("GET", "/api/account/summary", who)).json();

async function moneyOf(transferId: string) {
  const [request] = await t.database.db
    .select()
    .from(transferRequests)
    .where(eq(transferRequests.id, transferId));
  const [hold] = await t.database.db.select().from(holds).where(eq(holds.id, request!.holdId!));
  const [debit] = await t.database.db
    .select()
    .from(transactions)
    .where(eq(transactions.id, request!.transactionId!));
  return { request: request!, hold: hold!, debit: debit! };
}

async function blockedFundsCents(): Promise<number> {
  const [row] = await t.database.query<{ total: string }>(
    `select coalesce(sum(p.amount), 0)::text as total from postings p
       join ledger_accounts a on a.id = p.account_id where a.code = 'blocked_funds'`,
  );
  return Number(row!.total);
}

/** DESIGN's invariants, and each transfer's hold agrees with where it ended. */
async function expectMoneyConsistent() {
  await expectLedgerClean(t.database);
  const drift = await t.database.query<{ id: string; status: string; hold: string }>(
    `select t.id, t.status, h.status as hold from transfer_requests t join holds h on h.id = t.hold_id
      where (t.status in ('pending', 'processing') and h.status <> 'open')
         or (t.status in ('cancelled', 'failed') and h.status <> 'released')
         or (t.status in ('completed', 'blocked') and h.status <> 'captured')`,
  );
  expect(drift).toEqual([]);
  const [system] = await t.database.db
    .select({ balance: ledgerAccounts.balance, held: ledgerAccounts.held })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.code, "blocked_funds"));
  // A system account keeps no cached balance (every block would lock the same row).
  expect(system).toEqual({ balance: 0, held: 0 });
}

describe("the customer's cancel of a transfer held by compliance", () => {
  it("is refused while the hold stands, open or after a report was filed, and nothing moves", async () => {
    const { customer, caseId, transferId } = await heldTransfer();
    const receipt = await call("GET", `/api/transfers/${transferId}`, customer);
    expect(receipt.json()).toMatchObject({ status: "pending", canCancel: false });

    const refused = await cancel(customer, transferId);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({
      message: RECEIPT_MESSAGES.underReviewNoCancel,
      reason: "transfer_under_review",
      transferUnderReview: true,
    });
    // Neutral words: nothing about lists, sanctions or a case.
    expect(refused.body).not.toMatch(/sanction|ofac|compliance|case|listed/i);

    expect((await decide(caseId, { decision: "file" })).json().case.status).toBe("filed");
    const afterFiling = await cancel(customer, transferId);
    expect(afterFiling.statusCode).toBe(409);
    expect(afterFiling.json().transferUnderReview).toBe(true);

    const { request, hold, debit } = await moneyOf(transferId);
    expect([request.status, hold.status, debit.status]).toEqual(["pending", "open", "pending"]);
    expect((await summary(customer)).pendingBalance).toBe("$100.00");
    const audited = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, transferId), eq(auditLog.action, "transfer.cancel_by_customer")));
    expect(audited).toEqual([]);
    await expectMoneyConsistent();
  });

  it("is allowed again once the case is cleared (released): the hold is gone", async () => {
    const { customer, caseId, transferId } = await heldTransfer("20.00");
    expect((await decide(caseId, { decision: "clear" })).json().case.status).toBe("cleared");
    expect((await call("GET", `/api/transfers/${transferId}`, customer)).json().canCancel).toBe(true);
    const cancelled = await cancel(customer, transferId);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().receipt.status).toBe("cancelled");
    expect((await summary(customer)).availableBalance).toBe("$500.00");
    await expectMoneyConsistent();
  });
});

describe("compliance decides a held transfer: release, reject or block", () => {
  it("blocks: the money leaves the wallet for blocked property, the transfer ends blocked, a report is due in 10 business days", async () => {
    const { customer, caseId, transferId } = await heldTransfer("100.00");
    const before = await blockedFundsCents();
    const approved = await decide(caseId, { decision: "block_transfer", transferId });
    expect(approved.statusCode, approved.body).toBe(200);
    const detail = approved.json().case;
    // The case keeps its status: compliance still decides the customer (clear, restrict, freeze, file).
    expect(detail.status).toBe("open");
    expect(detail.transfers).toEqual([]);
    const decision = detail.decisions.at(-1);
    expect(decision).toMatchObject({
      decision: "block_transfer",
      status: "approved",
      transferId,
      reportDueOn: addBusinessDays(bankToday(), BLOCKED_REPORT_BUSINESS_DAYS),
    });

    const { request, hold, debit } = await moneyOf(transferId);
    expect([request.status, hold.status, debit.status]).toEqual(["blocked", "captured", "blocked"]);
    // The debit carries the whole amount and no fee (the statement sums its fees): nothing was sent.
    expect([debit.amount, debit.fee, debit.netAmount]).toEqual([10_000, 0, 10_000]);
    expect((await blockedFundsCents()) - before).toBe(10_000);
    // $500 funded − $100 blocked, nothing held, no fee taken.
    expect(await summary(customer)).toMatchObject({
      totalBalance: "$400.00",
      availableBalance: "$400.00",
      pendingBalance: "$0.00",
    });
    const receipt = (await call("GET", `/api/transfers/${transferId}`, customer)).json();
    expect(receipt).toMatchObject({ status: "blocked", canCancel: false });
    expect((await cancel(customer, transferId)).statusCode).toBe(409);
    // Staff cannot move a blocked transfer: it is terminal.
    const moved = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "cancelled",
    });
    expect(moved.statusCode).toBe(409);
    const rows = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.targetId, transferId));
    expect(rows.map((r) => r.action)).toContain("transfer.blocked_by_compliance");
    const access = (await call("GET", "/api/account/data-access", customer)).json();
    expect(JSON.stringify(access)).not.toMatch(/block|sanction|ofac/i);
    await expectMoneyConsistent();
  });

  it("rejects: the hold is released, the money is available again, a report is due in 10 business days", async () => {
    const { customer, caseId, transferId } = await heldTransfer("60.00");
    const approved = await decide(caseId, { decision: "reject_transfer", transferId });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().case.decisions.at(-1)).toMatchObject({
      decision: "reject_transfer",
      transferId,
      reportDueOn: addBusinessDays(bankToday(), BLOCKED_REPORT_BUSINESS_DAYS),
    });
    const { request, hold, debit } = await moneyOf(transferId);
    expect([request.status, hold.status, debit.status]).toEqual(["cancelled", "released", "cancelled"]);
    expect(await summary(customer)).toMatchObject({ totalBalance: "$500.00", availableBalance: "$500.00" });
    await expectMoneyConsistent();
  });

  it("releases with the case's clear: the hold stands and the transfer continues to approval as today", async () => {
    const { customer, caseId, transferId } = await heldTransfer("40.00");
    // Outgoing Pays says the row is held by compliance, so finance is not offered an Approve that answers 409.
    const heldRow = async () => {
      const page = await call("GET", "/api/admin/transfer-requests?status=pending&limit=100", finance);
      expect(page.statusCode, page.body).toBe(200);
      return page.json().items.find((r: { id: string }) => r.id === transferId).heldByCompliance;
    };
    expect(await heldRow()).toBe(true);
    const clean = await createFundedCustomer(t, admin, "50.00");
    const cleanId = (await requestTransfer(t.app, clean, { amount: "5.00" })).json().transferRequest.id;
    const cleanRow = (await call("GET", "/api/admin/transfer-requests?status=pending&limit=100", finance))
      .json()
      .items.find((r: { id: string }) => r.id === cleanId);
    expect(cleanRow.heldByCompliance).toBe(false);
    const refused = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "approved",
    });
    expect(refused.json().complianceHold).toBe(true);
    expect((await decide(caseId, { decision: "clear" })).json().case.status).toBe("cleared");
    expect((await moneyOf(transferId)).hold.status).toBe("open");
    expect(await heldRow()).toBe(false);
    const approved = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "approved",
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe("completed");
    expect((await summary(customer)).totalBalance).toBe("$460.00");
    await expectMoneyConsistent();
  });

  it("refuses a transfer decision without its transfer, another customer's transfer, and a transfer on other decisions", async () => {
    const { caseId, transferId } = await heldTransfer("10.00");
    const other = await heldTransfer("10.00");
    const missing = await propose(caseId, { decision: "block_transfer" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(COMPLIANCE_MESSAGES.transferRequired);
    const foreign = await propose(caseId, { decision: "block_transfer", transferId: other.transferId });
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json().message).toBe(COMPLIANCE_MESSAGES.transferNotHeld);
    const onClear = await propose(caseId, { decision: "clear", transferId });
    expect(onClear.statusCode).toBe(400);
    expect(onClear.json().message).toBe(COMPLIANCE_MESSAGES.transferNotForDecision);
    const wrongType = await propose(caseId, { decision: "reject_transfer", transferId: 42 });
    expect(wrongType.statusCode).toBe(400);
    // Nothing was proposed by any of them.
    expect((await call("GET", `${CASES}/${caseId}`, maker)).json().decisions).toEqual([]);
    await expectMoneyConsistent();
  });

  it("decides once: a replayed approval answers 409, and a transfer settled meanwhile refuses with nothing changed", async () => {
    const { caseId, transferId } = await heldTransfer("30.00");
    const proposed = await propose(caseId, { decision: "block_transfer", transferId });
    const pending = proposed.json().case.decisions[0];
    // Finance cannot give the money back meanwhile: returning it is the case's decision.
    const staffCancel = await call("PUT", `/api/admin/transfer-requests/${transferId}`, finance, {
      status: "cancelled",
    });
    expect(staffCancel.statusCode, staffCancel.body).toBe(409);
    expect(staffCancel.json()).toMatchObject({
      complianceHold: true,
      message: COMPLIANCE_MESSAGES.complianceHoldNoReturn,
    });
    // The transfer settles by a path that is not a person's (a payout worker's revert cancels it): the block's
    // approval then finds nothing to block.
    await updateTransferStatus(t.database.db, null, transferId, { status: "cancelled" });
    const stale = await call("POST", `${CASES}/${caseId}/decisions/${pending.id}/approve`, checker, {});
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(COMPLIANCE_MESSAGES.transferSettledMeanwhile);
    expect((await moneyOf(transferId)).request.status).toBe("cancelled");
    const after = (await call("GET", `${CASES}/${caseId}`, maker)).json();
    expect(after.decisions.find((d: { id: string }) => d.id === pending.id).status).toBe("pending");

    const second = await heldTransfer("30.00");
    const proposal = await propose(second.caseId, {
      decision: "reject_transfer",
      transferId: second.transferId,
    });
    const id = proposal.json().case.decisions[0].id;
    const url = `${CASES}/${second.caseId}/decisions/${id}/approve`;
    const [a, b] = await Promise.all([call("POST", url, checker, {}), call("POST", url, checker, {})]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    await expectMoneyConsistent();
  });
});
