import { beforeAll, describe, expect, it } from "vitest";
import { createApprovedCustomer, expectLedgerCleanAfterEach, fundCustomer } from "@/tests/support/money";
import { enrolTotp, freshTotpCode, postJson } from "@/tests/support/second-factor";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpVerifiedUser } from "@/tests/support/users";

// docs/architecture.md "Maker-checker" (dryRun): the desk asked for the second factor before the server had
// checked the amount or the reason, so the code was spent on a call that could only fail. A `dryRun` call
// checks everything without the factor. And (same section): a balance target typed against a balance that moved
// meanwhile is refused instead of swallowing it.

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const finance = setUpVerifiedUser(t, { staffRoles: ["finance"] });
const finance2 = setUpVerifiedUser(t, { staffRoles: ["finance"] });
const owner = setUpVerifiedUser(t, { staffRoles: ["owner"] });
expectLedgerCleanAfterEach(t);
let secret = "";
beforeAll(async () => {
  ({ secret } = await enrolTotp(t.app, finance.cookie));
});

const call = (who: SignedInUser, method: "POST" | "PUT", url: string, payload: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, payload });
const createPayment = (payload: object) => call(finance, "POST", "/api/admin/incoming-payments", payload);
const setBalance = (userId: string, payload: object) =>
  call(finance, "PUT", `/api/admin/users/${userId}/balance`, payload);

/** Every row a money call could write. */
async function written() {
  const [row] = await t.database.query<{ n: string }>(
    `select concat_ws(',', (select count(*) from approvals), (select count(*) from incoming_payments),
       (select count(*) from journal_entries), (select count(*) from audit_log),
       (select count(*) from mail_outbox), (select count(*) from idempotency_keys)) as n`,
  );
  return row!.n;
}

describe("the money desk checks before it asks for a second factor", () => {
  it("a dry run refuses a bad amount or a missing reason without a step-up, and the code stays unspent", async () => {
    const customer = await createApprovedCustomer(t.database);
    const code = await freshTotpCode(t.database, finance.user.id, secret);
    const before = await written();
    const completed = { userId: customer.user.id, status: "completed", dryRun: true };

    const badAmount = await createPayment({ ...completed, amount: "1e3" });
    expect(badAmount.statusCode, badAmount.body).toBe(400);
    expect(badAmount.json()).toMatchObject({
      message: "Amount must be a positive dollar amount with at most 2 decimals",
    });
    const noReason = await createPayment({ ...completed, amount: "5000" });
    expect(noReason.statusCode, noReason.body).toBe(400);
    expect(noReason.json()).toMatchObject({ reasonRequired: true, field: "reason" });
    const badCredit = await call(finance, "POST", "/api/admin/transactions", {
      userId: customer.user.id,
      amount: "-5",
      description: "Goodwill",
      dryRun: true,
    });
    expect(badCredit.statusCode, badCredit.body).toBe(400);
    expect(badCredit.json().stepUpRequired).toBeUndefined();
    const badBalance = await setBalance(customer.user.id, {
      accountBalance: "-5",
      reason: "x",
      dryRun: true,
    });
    expect(badBalance.statusCode, badBalance.body).toBe(400);
    expect(badBalance.json().message).toBe("Enter the new balance as a dollar amount, e.g. $1000.00");
    const noBalanceReason = await setBalance(customer.user.id, { accountBalance: "5000", dryRun: true });
    expect(noBalanceReason.statusCode, noBalanceReason.body).toBe(400);
    expect(noBalanceReason.json().reasonRequired).toBe(true);

    // Passing dry runs say whether the real call would wait for a second member, and write nothing.
    const large = await createPayment({ ...completed, amount: "5000", reason: "Wire from employer" });
    expect(large.statusCode, large.body).toBe(200);
    expect(large.json()).toEqual({ dryRun: true, message: "Checks passed", pendingApproval: true });
    const small = await createPayment({ ...completed, amount: "50" });
    expect(small.json()).toEqual({ dryRun: true, message: "Checks passed", pendingApproval: false });
    const edit = await setBalance(customer.user.id, {
      accountBalance: "5000",
      reason: "Migration",
      dryRun: true,
    });
    expect(edit.json()).toEqual({ dryRun: true, message: "Checks passed", pendingApproval: true });
    expect(await written()).toBe(before);

    // The real call still needs the factor, and the code the person had ready still works.
    const real = await createPayment({
      ...completed,
      dryRun: false,
      amount: "5000",
      reason: "Wire from employer",
    });
    expect(real.statusCode).toBe(403);
    expect(real.json().stepUpRequired).toBe(true);
    const stepUp = await postJson(t.app, "/api/auth/step-up", finance.cookie, {
      secondFactor: { method: "totp", code },
    });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    const sent = await createPayment({
      userId: customer.user.id,
      status: "completed",
      amount: "5000",
      reason: "Wire",
    });
    expect(sent.statusCode, sent.body).toBe(202);
  });

  it("a dry run is refused like the real call for a pending approval on the same target or a wrong type", async () => {
    const customer = await createApprovedCustomer(t.database);
    const first = await call(finance2, "PUT", `/api/admin/users/${customer.user.id}/balance`, {
      accountBalance: "100",
      reason: "Correction",
    });
    expect(first.statusCode, first.body).toBe(202);
    const again = await setBalance(customer.user.id, {
      accountBalance: "200",
      reason: "Again",
      dryRun: true,
    });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().approvalPending).toBe(true);
    const wrongType = await setBalance(customer.user.id, {
      accountBalance: "200",
      reason: "x",
      dryRun: "yes",
    });
    expect(wrongType.statusCode).toBe(400);
  });
});

describe("completing a pending payment or credit", () => {
  it("is checked without a second factor by a dry run, and a missing reason is refused before any code", async () => {
    const customer = await createApprovedCustomer(t.database);
    const pending = await call(owner, "POST", "/api/admin/incoming-payments", {
      userId: customer.user.id,
      amount: "5000",
    });
    expect(pending.statusCode, pending.body).toBe(201);
    const credit = await call(owner, "POST", "/api/admin/transactions", {
      userId: customer.user.id,
      amount: "5000",
      description: "Goodwill",
      status: "pending",
    });
    expect(credit.statusCode, credit.body).toBe(201);
    // The step-up of the first test is made stale: the real call must ask for a fresh one.
    await t.database.query(
      "update auth_challenges set expires_at = now() where purpose = 'step_up' and user_id = $1",
      [finance.user.id],
    );
    const before = await written();
    const paymentUrl = `/api/admin/incoming-payments/${pending.json().payment.id}`;
    const creditUrl = `/api/admin/transactions/${credit.json().id}`;
    for (const url of [paymentUrl, creditUrl]) {
      const noReason = await call(finance, "PUT", url, { status: "completed", dryRun: true });
      expect(noReason.statusCode, noReason.body).toBe(400);
      expect(noReason.json().reasonRequired).toBe(true);
      const passes = await call(finance, "PUT", url, { status: "completed", reason: "Wire", dryRun: true });
      expect(passes.json()).toEqual({ dryRun: true, message: "Checks passed", pendingApproval: true });
      expect((await call(finance, "PUT", url, { status: "completed", reason: "Wire" })).statusCode).toBe(403);
    }
    expect(await written()).toBe(before);
  });
});

describe("a balance edit typed against a balance that moved", () => {
  it("is refused with 409 naming the balance now, and the approved before → after is what posts", async () => {
    const customer = await createApprovedCustomer(t.database);
    await fundCustomer(t, owner, customer.user.id, "250");
    // The maker opens the customer at $250.00 and types $5,250.00; meanwhile a $10 credit posts.
    const credit = await call(owner, "POST", "/api/admin/transactions", {
      userId: customer.user.id,
      amount: "10",
      description: "Goodwill",
    });
    expect(credit.statusCode, credit.body).toBe(201);
    const before = await written();
    const stale = await call(finance2, "PUT", `/api/admin/users/${customer.user.id}/balance`, {
      accountBalance: "$5,250.00",
      expectedBalance: "$250.00",
      reason: "Correction",
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({
      balanceChanged: true,
      message:
        "The balance changed since you opened it (it is $260.00 now): check it and enter the new balance again",
    });
    expect(await written()).toBe(before);

    const fresh = await call(finance2, "PUT", `/api/admin/users/${customer.user.id}/balance`, {
      accountBalance: "$5,260.00",
      expectedBalance: "$260.00",
      reason: "Correction",
    });
    expect(fresh.statusCode, fresh.body).toBe(202);
    expect(fresh.json().approval).toMatchObject({ before: { balance: 26_000 }, after: { balance: 526_000 } });
    const approved = await call(
      owner,
      "POST",
      `/api/admin/approvals/${fresh.json().approval.id}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const [wallet] = await t.database.query<{ balance: string }>(
      "select balance::text as balance from ledger_accounts where user_id = $1",
      [customer.user.id],
    );
    expect(wallet?.balance).toBe("526000");
  });
});
