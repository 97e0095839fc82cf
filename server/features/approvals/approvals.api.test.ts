import { describe, expect, it } from "vitest";
import { APPROVAL_MESSAGES } from "@/contract/approvals";
import { createApprovedCustomer, expectLedgerCleanAfterEach, fundCustomer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpVerifiedUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const staff = {
  finance: setUpVerifiedUser(t, { staffRoles: ["finance"] }),
  finance2: setUpVerifiedUser(t, { staffRoles: ["finance"] }),
  compliance: setUpVerifiedUser(t, { staffRoles: ["compliance"] }),
  compliance2: setUpVerifiedUser(t, { staffRoles: ["compliance"] }),
  support: setUpVerifiedUser(t, { staffRoles: ["support"] }),
  owner: setUpVerifiedUser(t, { staffRoles: ["owner"] }),
};
expectLedgerCleanAfterEach(t);

const call = (who: SignedInUser, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
const approve = (who: SignedInUser, id: string) =>
  call(who, "POST", `/api/admin/approvals/${id}/approve`, {});
const reject = (who: SignedInUser, id: string, reason = "Not justified") =>
  call(who, "POST", `/api/admin/approvals/${id}/reject`, { reason });
/** The admin desk's three money calls, each held for approval above the threshold. */
const addIncomingPayment = (who: SignedInUser, userId: string, amount: string, extra: object = {}) =>
  call(who, "POST", "/api/admin/incoming-payments", { userId, amount, ...extra });
const addCredit = (
  who: SignedInUser,
  userId: string,
  amount: string,
  description: string,
  extra: object = {},
) => call(who, "POST", "/api/admin/transactions", { userId, amount, description, ...extra });
const setBalance = (who: SignedInUser, userId: string, accountBalance: string, extra: object = {}) =>
  call(who, "PUT", `/api/admin/users/${userId}/balance`, { accountBalance, ...extra });

/** Everything a customer could see or receive: balance, ledger, history, payments, mail, freeze, KYC. */
async function customerState(customer: SignedInUser) {
  const [row] = await t.database.query<{
    ledger: string;
    transactions: number;
    payments: number;
    payment_statuses: string | null;
    transaction_statuses: string | null;
    mail: number;
    frozen: boolean;
    kyc: string | null;
  }>(
    `select
       (select coalesce(sum(p.amount), 0)::text from postings p join ledger_accounts a on a.id = p.account_id
          where a.user_id = $1) as ledger,
       (select count(*)::int from transactions where user_id = $1) as transactions,
       (select count(*)::int from incoming_payments where user_id = $1) as payments,
       (select string_agg(status, ',' order by id) from incoming_payments where user_id = $1) as payment_statuses,
       (select string_agg(status, ',' order by id) from transactions where user_id = $1) as transaction_statuses,
       (select count(*)::int from mail_outbox where to_address = $2) as mail,
       (select frozen_at is not null from users where id = $1) as frozen,
       (select string_agg(status, ',') from kyc_applications where user_id = $1) as kyc`,
    [customer.user.id, customer.email],
  );
  const summary = (await call(customer, "GET", "/api/account/summary")).json();
  return { ...row!, balance: summary.totalBalance as string };
}

const entriesFor = async (referenceId: string) =>
  (
    await t.database.query<{ n: number }>(
      "select count(*)::int as n from journal_entries where reference_id = $1",
      [referenceId],
    )
  )[0]!.n;

describe("APPROVAL_THRESHOLD edges (default $1,000.00)", () => {
  it("posts exactly $1,000.00 at once and holds $1,000.01 for approval, changing nothing the customer sees", async () => {
    const customer = await createApprovedCustomer(t.database);
    const exact = await addIncomingPayment(staff.finance, customer.user.id, "1000.00", {
      status: "completed",
    });
    expect(exact.statusCode, exact.body).toBe(201);
    expect(exact.json().userBalance).toBe("$1,000.00");

    const before = await customerState(customer);
    const over = await addIncomingPayment(staff.finance, customer.user.id, "1000.01", {
      status: "completed",
      reason: "Payroll from employer",
    });
    expect(over.statusCode, over.body).toBe(202);
    expect(over.json()).toMatchObject({
      message: "Sent for approval",
      pendingApproval: true,
      approval: {
        kind: "incoming_payment",
        status: "pending",
        amountCents: 100_001,
        reason: "Payroll from employer",
        maker: { id: staff.finance.user.id, role: "finance" },
        checker: null,
        before: { balance: 100_000 },
        after: { balance: 200_001 },
      },
    });
    expect(await customerState(customer)).toEqual(before);

    const credit = await addCredit(staff.finance, customer.user.id, "1000.01", "Goodwill", {
      reason: "Complaint settlement",
    });
    expect(credit.statusCode, credit.body).toBe(202);
    expect(credit.json().approval.kind).toBe("credit");
    // Exactly the threshold completes for a credit too; another maker and customer, as the first maker's and
    // customer's 24-hour windows are past it now (decision 017, credit-window.api.test.ts).
    const fresh = await createApprovedCustomer(t.database);
    const smallCredit = await addCredit(staff.finance2, fresh.user.id, "1000", "Goodwill");
    expect(smallCredit.statusCode).toBe(201);
  });

  it("needs a reason above the threshold: 400 naming the field, nothing written", async () => {
    const customer = await createApprovedCustomer(t.database);
    const before = await customerState(customer);
    const [{ n: approvalsBefore }] = await t.database.query<{ n: number }>(
      "select count(*)::int as n from approvals",
    );
    for (const reason of [undefined, "", "   "]) {
      const res = await call(staff.finance, "POST", "/api/admin/incoming-payments", {
        userId: customer.user.id,
        amount: "5000",
        status: "completed",
        ...(reason === undefined ? {} : { reason }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: APPROVAL_MESSAGES.reasonRequired,
        field: "reason",
        reasonRequired: true,
      });
    }
    const balance = await setBalance(staff.finance, customer.user.id, "10");
    expect(balance.statusCode).toBe(400);
    expect(balance.json().field).toBe("reason");
    expect(await customerState(customer)).toEqual(before);
    const [{ n: approvalsAfter }] = await t.database.query<{ n: number }>(
      "select count(*)::int as n from approvals",
    );
    expect(approvalsAfter).toBe(approvalsBefore);
  });

  it("creates a pending $5,000 payment directly, and holds its completion for approval", async () => {
    const customer = await createApprovedCustomer(t.database);
    const created = await addIncomingPayment(staff.finance, customer.user.id, "5000");
    expect(created.statusCode).toBe(201);
    const paymentId = created.json().payment.id;
    const before = await customerState(customer);
    const asked = await call(staff.finance, "PUT", `/api/admin/incoming-payments/${paymentId}`, {
      status: "completed",
      reason: "Wire confirmed by the bank",
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(await customerState(customer)).toEqual(before);
    // One pending approval per payment.
    const again = await call(staff.owner, "PUT", `/api/admin/incoming-payments/${paymentId}`, {
      status: "completed",
      reason: "Again",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().approvalPending).toBe(true);

    const done = await approve(staff.finance2, asked.json().approval.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      message: APPROVAL_MESSAGES.approved,
      approval: { status: "approved", checker: { id: staff.finance2.user.id, role: "finance" } },
      result: { payment: { status: "completed" }, userBalance: "$5,000.00" },
    });
    expect(await entriesFor(paymentId)).toBe(1);
    const after = await customerState(customer);
    expect(after.balance).toBe("$5,000.00");
    expect(after.mail).toBe(before.mail + 1);
    // The money desk's own audit row, by the maker; the checker's decision is its own row.
    const audit = await t.database.query<{ action: string; actor_id: string }>(
      `select action, actor_id from audit_log where target_id in ($1, $2) order by id`,
      [paymentId, asked.json().approval.id],
    );
    expect(audit).toEqual([
      { action: "incoming_payment.create", actor_id: staff.finance.user.id },
      { action: "approval.request", actor_id: staff.finance.user.id },
      { action: "incoming_payment.update_status", actor_id: staff.finance.user.id },
      { action: "approval.approve", actor_id: staff.finance2.user.id },
    ]);
  });

  it("holds a pending credit's completion above the threshold, then posts it once", async () => {
    const customer = await createApprovedCustomer(t.database);
    const created = await addCredit(staff.finance, customer.user.id, "2500", "Refund", { status: "pending" });
    expect(created.statusCode).toBe(201);
    const asked = await call(staff.finance, "PUT", `/api/admin/transactions/${created.json().id}`, {
      status: "completed",
      reason: "Refund approved by the merchant",
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect((await customerState(customer)).balance).toBe("$0.00");
    expect((await approve(staff.owner, asked.json().approval.id)).statusCode).toBe(200);
    expect((await customerState(customer)).balance).toBe("$2,500.00");
    expect(await entriesFor(created.json().id)).toBe(1);
  });
});

describe("the audit log of an approval", () => {
  it("names the customer on the request and the decision rows, with the maker's reason", async () => {
    const customer = await createApprovedCustomer(t.database);
    const asked = await addCredit(staff.finance, customer.user.id, "1500", "Goodwill", {
      reason: "Settlement",
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect((await approve(staff.finance2, asked.json().approval.id)).statusCode).toBe(200);
    const log = await call(
      staff.owner,
      "GET",
      `/api/admin/audit?customer=${customer.user.id}&action=approval.*`,
    );
    expect(log.statusCode, log.body).toBe(200);
    const name = `${customer.user.firstName} ${customer.user.lastName}`;
    expect(log.json().items).toEqual([
      expect.objectContaining({
        action: "approval.approve",
        customer: { id: customer.user.id, email: customer.email, name },
      }),
      expect.objectContaining({
        action: "approval.request",
        reason: "Settlement",
        customer: { id: customer.user.id, email: customer.email, name },
        before: { creditStatus: null, balance: 0 },
      }),
    ]);
  });
});

describe("who may decide", () => {
  it("refuses self-approval and self-rejection, even for an owner, and a checker without the kind's role", async () => {
    const customer = await createApprovedCustomer(t.database);
    const asked = await setBalance(staff.owner, customer.user.id, "75.00", { reason: "Correction" });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().approval.maker.role).toBe("owner");
    const id = asked.json().approval.id;
    const self = await approve(staff.owner, id);
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({ selfApproval: true, message: APPROVAL_MESSAGES.selfApproval });
    expect((await reject(staff.owner, id)).json().selfApproval).toBe(true);

    const wrongRole = await approve(staff.compliance, id);
    expect(wrongRole.statusCode).toBe(403);
    expect(wrongRole.json()).toMatchObject({ roleRequired: true, allowedRoles: ["finance", "owner"] });
    expect((await approve(staff.support, id)).statusCode).toBe(403);
    expect((await approve(customer, id)).statusCode).toBe(403);
    expect((await customerState(customer)).balance).toBe("$0.00");

    const missing = await call(staff.finance, "POST", `/api/admin/approvals/${id}/reject`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(APPROVAL_MESSAGES.rejectReasonRequired);

    expect((await approve(staff.finance, id)).statusCode).toBe(200);
    expect((await customerState(customer)).balance).toBe("$75.00");
    const unknown = await approve(staff.finance, crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect((await approve(staff.finance, "not-a-uuid")).statusCode).toBe(400);
  });

  it("lets compliance (not finance) decide a KYC reset and an unfreeze", async () => {
    const customer = await createApprovedCustomer(t.database);
    await t.database.query("update kyc_applications set status = 'rejected' where user_id = $1", [
      customer.user.id,
    ]);
    await t.database.query("update users set frozen_at = now() where id = $1", [customer.user.id]);
    const [kyc] = await t.database.query<{ id: string }>(
      "select id from kyc_applications where user_id = $1",
      [customer.user.id],
    );
    const reset = await call(staff.compliance, "PUT", `/api/admin/kyc/${kyc!.id}/reset`, {
      reason: "New ID",
    });
    expect(reset.statusCode, reset.body).toBe(202);
    const lift = await call(staff.compliance, "POST", `/api/admin/users/${customer.user.id}/unfreeze`, {
      reason: "Customer called from the number on file",
    });
    expect(lift.statusCode, lift.body).toBe(202);
    expect((await customerState(customer)).kyc).toBe("rejected");
    expect((await customerState(customer)).frozen).toBe(true);
    // Finance reads the queue but may not decide identity changes.
    expect((await approve(staff.finance, reset.json().approval.id)).json().roleRequired).toBe(true);
    expect((await approve(staff.compliance2, reset.json().approval.id)).statusCode).toBe(200);
    expect((await approve(staff.compliance2, lift.json().approval.id)).statusCode).toBe(200);
    expect((await customerState(customer)).kyc).toBe("pending");
    expect((await customerState(customer)).frozen).toBe(false);
  });
});

describe("exactly once under races", () => {
  it("two approvers at once: one posting, the other 409", async () => {
    const customer = await createApprovedCustomer(t.database);
    const asked = await addIncomingPayment(staff.finance, customer.user.id, "3000", {
      status: "completed",
      reason: "Wire",
    });
    const id = asked.json().approval.id;
    const results = await Promise.all([approve(staff.finance2, id), approve(staff.owner, id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().approvalDecided).toBe(true);
    const payments = await t.database.query<{ id: string }>(
      "select id from incoming_payments where user_id = $1",
      [customer.user.id],
    );
    expect(payments).toHaveLength(1);
    expect(await entriesFor(payments[0]!.id)).toBe(1);
    expect((await customerState(customer)).balance).toBe("$3,000.00");
  });

  it("approve against reject at once: one wins, the other 409, and the state matches the winner", async () => {
    for (let round = 0; round < 3; round++) {
      const customer = await createApprovedCustomer(t.database);
      const asked = await setBalance(staff.finance, customer.user.id, "1234.56", { reason: "Migration" });
      const id = asked.json().approval.id;
      const [a, r] = await Promise.all([approve(staff.finance2, id), reject(staff.owner, id)]);
      expect([a.statusCode, r.statusCode].sort()).toEqual([200, 409]);
      const balance = (await customerState(customer)).balance;
      expect(balance).toBe(a.statusCode === 200 ? "$1,234.56" : "$0.00");
      const list = (await call(staff.finance, "GET", "/api/admin/approvals?status=all&limit=200")).json();
      const decided = list.items.find((x: { id: string }) => x.id === id);
      expect(decided.status).toBe(a.statusCode === 200 ? "approved" : "rejected");
    }
  });
});

describe("stale targets", () => {
  it("refuses cleanly (409, still pending) when the balance moved, the freeze was lifted or the customer is gone", async () => {
    const customer = await createApprovedCustomer(t.database);
    const asked = await setBalance(staff.finance, customer.user.id, "500", { reason: "Correction" });
    await fundCustomer(t, staff.owner, customer.user.id, "10");
    const stale = await approve(staff.finance2, asked.json().approval.id);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ staleApproval: true, balanceChanged: true });
    expect((await customerState(customer)).balance).toBe("$10.00");
    const list = (await call(staff.finance, "GET", "/api/admin/approvals?status=pending&limit=200")).json();
    expect(list.items.some((x: { id: string }) => x.id === asked.json().approval.id)).toBe(true);
    // The checker then rejects it: nothing moves.
    expect((await reject(staff.finance2, asked.json().approval.id)).statusCode).toBe(200);

    const frozen = await createApprovedCustomer(t.database);
    await t.database.query("update users set frozen_at = now() where id = $1", [frozen.user.id]);
    const lift = await call(staff.compliance, "POST", `/api/admin/users/${frozen.user.id}/unfreeze`, {
      reason: "Verified",
    });
    await t.database.query("update users set frozen_at = null where id = $1", [frozen.user.id]);
    const notFrozen = await approve(staff.compliance2, lift.json().approval.id);
    expect(notFrozen.statusCode).toBe(409);
    expect(notFrozen.json()).toMatchObject({ staleApproval: true, notFrozen: true });

    const gone = await createApprovedCustomer(t.database);
    const credit = await addCredit(staff.finance, gone.user.id, "4000", "Bonus", { reason: "Promotion" });
    expect(credit.statusCode).toBe(202);
    expect((await call(staff.owner, "DELETE", `/api/admin/users/${gone.user.id}`)).statusCode).toBe(200);
    const orphan = await approve(staff.finance2, credit.json().approval.id);
    expect(orphan.statusCode).toBe(409);
    expect(orphan.json()).toMatchObject({ staleApproval: true, customerGone: true });
    const [{ n }] = await t.database.query<{ n: number }>(
      "select count(*)::int as n from audit_log where target_id = $1 and action = 'approval.approve'",
      [credit.json().approval.id],
    );
    expect(n).toBe(0);
  });
});

describe("GET /api/admin/approvals", () => {
  it("lists pending first with age and risk signals, pages by keyset, and is for finance and compliance", async () => {
    const customer = await createApprovedCustomer(t.database);
    await fundCustomer(t, staff.owner, customer.user.id, "200");
    await fundCustomer(t, staff.owner, customer.user.id, "100");
    await t.database.query(
      "insert into known_devices (user_id, token_hash, user_agent) values ($1, 'recent-device', 'test')",
      [customer.user.id],
    );
    await t.database.query("update users set frozen_at = now() where id = $1", [customer.user.id]);
    const asked = await addIncomingPayment(staff.finance, customer.user.id, "5000", {
      status: "completed",
      reason: "Large wire",
    });
    const id = asked.json().approval.id;
    const page = (await call(staff.compliance, "GET", "/api/admin/approvals?limit=200")).json();
    const firstDecided = page.items.findIndex((x: { status: string }) => x.status !== "pending");
    const lastPending = page.items.map((x: { status: string }) => x.status).lastIndexOf("pending");
    expect(firstDecided === -1 || lastPending < firstDecided).toBe(true);
    const item = page.items.find((x: { id: string }) => x.id === id);
    expect(item).toMatchObject({
      status: "pending",
      summary: "New incoming payment of $5,000.00, completed on approval",
      user: { id: customer.user.id, email: customer.email },
      maker: { role: "finance", email: staff.finance.email },
      riskSignals: {
        accountAgeDays: 0,
        newDevices7d: 1,
        firstTimeAddresses7d: 0,
        largestCreditCents: 20_000,
        averageCreditCents: 15_000,
        creditCount: 2,
        amountVsLargest: 25,
        frozen: true,
        kycRejected: false,
      },
    });
    expect(item.ageSeconds).toBeGreaterThanOrEqual(0);

    // Keyset: one at a time covers the same items in the same order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(
        staff.finance,
        "GET",
        `/api/admin/approvals?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(res.statusCode).toBe(200);
      seen.push(...res.json().items.map((x: { id: string }) => x.id));
      cursor = res.json().nextCursor;
    } while (cursor);
    expect(seen).toEqual(page.items.map((x: { id: string }) => x.id));
    expect((await call(staff.finance, "GET", "/api/admin/approvals?cursor=garbage")).statusCode).toBe(400);

    expect((await call(staff.support, "GET", "/api/admin/approvals")).statusCode).toBe(403);
    expect((await call(customer, "GET", "/api/admin/approvals")).statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/api/admin/approvals" })).statusCode).toBe(401);
    expect((await reject(staff.finance2, id)).statusCode).toBe(200);
  });
});
