import { describe, expect, it } from "vitest";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
  requestTransfer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// The count cap is raised: the race below makes 75 requests on one wallet to prove the money limits.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100", TRANSFER_DAILY_COUNT_LIMIT: "1000" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

const transfer = (who: SignedInUser, body: Record<string, unknown>, key?: string) =>
  requestTransfer(t.app, who, { recipientRouting: "CRYPTO", ...body }, key);

const summary = async (who: SignedInUser) =>
  (
    await t.app.inject({ method: "GET", url: "/api/account/summary", headers: { cookie: who.cookie } })
  ).json();

const settle = (id: string, status: string) =>
  t.app.inject({
    method: "PUT",
    url: `/api/admin/transfer-requests/${id}`,
    headers: { cookie: admin.cookie },
    payload: { status, adminNotes: "checked" },
  });

describe("sending USDC", () => {
  it("refuses a customer whose account is not approved yet", async () => {
    const newcomer = await createVerifiedUser(t.database);
    const res = await transfer(newcomer, { amount: 10 });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      message: "Complete account setup to send money",
      accountSetupIncomplete: true,
    });
    expect(res.json().reason).toBe("setup_incomplete");
  });

  it("refuses ACH with the spec's message", async () => {
    const customer = await createApprovedCustomer(t.database);
    const res = await transfer(customer, { amount: 10, paymentMethod: "ach", recipientAccount: "123456789" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "ACH transfers are currently not available. Please use USDC crypto transfer",
    );
  });

  it.each([
    [0, "Amount must be greater than $0"],
    [-5, "Amount must be greater than $0"],
    [1.234, "Amount must be a dollar amount with at most 2 decimals"],
    ["12abc", "Amount must be a dollar amount with at most 2 decimals"],
    [[10], /amount/i],
  ])("refuses the amount %j", async (amount, message) => {
    const customer = await createApprovedCustomer(t.database);
    const res = await transfer(customer, { amount });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it.each(["0x123", "not an address", "0x52908400098527886E0F7030069857D2E4169EEZ", ""])(
    "refuses the wallet address %j",
    async (cryptoAddress) => {
      const customer = await createApprovedCustomer(t.database);
      const res = await transfer(customer, { amount: 5, cryptoAddress });
      expect(res.statusCode).toBe(400);
    },
  );

  it("accepts a Solana address", async () => {
    const customer = await createFundedCustomer(t, admin, "50");
    const res = await transfer(customer, {
      amount: 5,
      cryptoAddress: "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
    });
    expect(res.statusCode).toBe(201);
  });

  it("holds the amount, records a pending debit with a 2% fee, and guesses the category", async () => {
    const customer = await createFundedCustomer(t, admin, "1000.00");
    const res = await transfer(customer, { amount: 100.5 });
    expect(res.statusCode).toBe(201);
    const request = res.json().transferRequest;
    expect(request).toMatchObject({
      amountCents: 10_050,
      feeCents: 201,
      netAmountCents: 9_849,
      status: "pending",
      category: "food",
      recipientRouting: "CRYPTO",
      formattedAmount: "$100.50",
    });
    expect(await summary(customer)).toMatchObject({
      totalBalance: "$1,000.00",
      availableBalance: "$899.50",
      pendingBalance: "$100.50",
    });
    const recent = await t.app.inject({
      method: "GET",
      url: "/api/transactions/recent",
      headers: { cookie: customer.cookie },
    });
    expect(recent.json()[0]).toMatchObject({
      type: "debit",
      status: "pending",
      amount: "100.50",
      fee: "2.01",
      netAmount: "98.49",
    });
  });

  it("refuses more than the available balance and names it", async () => {
    const customer = await createFundedCustomer(t, admin, "40");
    const res = await transfer(customer, { amount: 40.01 });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: "Insufficient Funds: your available balance is $40.00",
      insufficientFunds: true,
      availableBalance: "$40.00",
    });
    expect(res.json().reason).toBe("insufficient_funds");
  });

  it("enforces the $2,000 New York daily limit; cancelled transfers stop counting", async () => {
    const customer = await createFundedCustomer(t, admin, "5000");
    const first = await transfer(customer, { amount: 1500 });
    expect(first.statusCode).toBe(201);
    const over = await transfer(customer, { amount: 500.01 });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({
      message: "Daily withdrawal limit exceeded",
      withdrawalLimitExceeded: true,
    });
    expect(over.json().reason).toBe("daily_limit");
    const limits = await t.app.inject({
      method: "GET",
      url: "/api/transfer/limits",
      headers: { cookie: customer.cookie },
    });
    expect(limits.json()).toMatchObject({
      dailyLimit: "$2,000.00",
      usedToday: "$1,500.00",
      remainingToday: "$500.00",
    });
    expect((await transfer(customer, { amount: 500 })).statusCode).toBe(201);
    expect((await settle(first.json().transferRequest.id, "rejected")).statusCode).toBe(200);
    expect((await transfer(customer, { amount: 1500 })).statusCode).toBe(201);
  });

  it("replays the first answer for a repeated Idempotency-Key and refuses the key with another body", async () => {
    const customer = await createFundedCustomer(t, admin, "300");
    const first = await transfer(customer, { amount: 25 }, "key-123");
    const again = await transfer(customer, { amount: 25 }, "key-123");
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json().transferRequest.id).toBe(first.json().transferRequest.id);
    expect((await summary(customer)).pendingBalance).toBe("$25.00");
    const other = await transfer(customer, { amount: 26 }, "key-123");
    expect(other.statusCode).toBe(409);
    expect((await transfer(customer, { amount: 1 }, "x".repeat(256))).statusCode).toBe(400);
  });

  it("never overdraws or passes the limit under 100 concurrent requests on one wallet", async () => {
    const customer = await createFundedCustomer(t, admin, "1500");
    const results = await Promise.all(Array.from({ length: 100 }, () => transfer(customer, { amount: 20 })));
    const accepted = results.filter((r) => r.statusCode === 201).length;
    expect(accepted).toBe(75);
    expect(results.every((r) => r.statusCode === 201 || r.statusCode === 422)).toBe(true);
    expect(await summary(customer)).toMatchObject({ availableBalance: "$0.00", pendingBalance: "$1,500.00" });

    const rich = await createFundedCustomer(t, admin, "10000");
    const burst = await Promise.all(Array.from({ length: 100 }, () => transfer(rich, { amount: 50 })));
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(40);
    expect(burst.filter((r) => r.json().withdrawalLimitExceeded === true)).toHaveLength(60);
  });

  it("keeps customers out of each other's data and admins out of sending", async () => {
    const signedOut = await t.app.inject({
      method: "POST",
      url: "/api/transfer/request",
      payload: { amount: 1 },
    });
    expect(signedOut.statusCode).toBe(401);
    const res = await transfer(admin, { amount: 1 });
    expect(res.statusCode).toBe(403);
    const customer = await createApprovedCustomer(t.database);
    const asCustomer = await t.app.inject({
      method: "GET",
      url: "/api/admin/transfer-requests",
      headers: { cookie: customer.cookie },
    });
    expect(asCustomer.statusCode).toBe(403);
  });
});

describe("settling transfers", () => {
  async function pendingTransfer(amount = 100) {
    const customer = await createFundedCustomer(t, admin, "500");
    const res = await transfer(customer, { amount });
    return { customer, id: res.json().transferRequest.id as string };
  }

  it("captures on completed: the wallet pays amount, clearing gets net and revenue the fee", async () => {
    const { customer, id } = await pendingTransfer(100);
    const res = await settle(id, "approved");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "completed", adminNotes: "checked" });
    expect(await summary(customer)).toMatchObject({
      totalBalance: "$400.00",
      availableBalance: "$400.00",
      pendingBalance: "$0.00",
    });
    const [fee] = await t.database.query<{ total: string }>(
      "select sum(p.amount)::text as total from postings p join ledger_accounts a on a.id = p.account_id where a.code = 'fee_revenue' and p.entry_id in (select entry_id from transactions where source_id = $1)",
      [id],
    );
    expect(fee.total).toBe("200");
  });

  it("releases on failed or cancelled and refuses to move a terminal transfer again", async () => {
    const { customer, id } = await pendingTransfer(100);
    expect((await settle(id, "processing")).json().status).toBe("processing");
    expect((await settle(id, "failed")).json().status).toBe("failed");
    expect(await summary(customer)).toMatchObject({ totalBalance: "$500.00", pendingBalance: "$0.00" });
    const again = await settle(id, "completed");
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This transfer is already failed and can no longer change");
  });

  it("settles exactly once when admins race", async () => {
    const { customer, id } = await pendingTransfer(100);
    const results = await Promise.all([
      settle(id, "completed"),
      settle(id, "cancelled"),
      settle(id, "completed"),
    ]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(2);
    const balance = (await summary(customer)).totalBalance;
    expect(["$400.00", "$500.00"]).toContain(balance);
  });

  it("refuses an unknown status, an unknown id and a malformed id", async () => {
    const { id } = await pendingTransfer(10);
    expect((await settle(id, "teleported")).statusCode).toBe(400);
    expect((await settle("00000000-0000-4000-8000-000000000000", "completed")).statusCode).toBe(404);
    expect((await settle("nope", "completed")).statusCode).toBe(400);
  });
});
