import { describe, expect, it } from "vitest";
import { PAYMENT_MESSAGES } from "@/contract/credits";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerClean,
  expectLedgerCleanAfterEach,
  fundCustomer,
  insertKycApplication,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

const asAdmin = (method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: { cookie: admin.cookie } });
const as = (who: SignedInUser, url: string) =>
  t.app.inject({ method: "GET", url, headers: { cookie: who.cookie } });
const balanceOf = async (who: SignedInUser) => (await as(who, "/api/account/summary")).json().totalBalance;

describe("the wallet cap", () => {
  it("refuses with 422 a credit that would take a wallet past $10,000,000,000.00, writing nothing", async () => {
    const customer = await createApprovedCustomer(t.database);
    await fundCustomer(t, admin, customer.user.id, "9999999999.00");
    for (const [url, payload] of [
      ["/api/admin/incoming-payments", { userId: customer.user.id, amount: "1.01", status: "completed" }],
      [
        "/api/admin/transactions",
        { userId: customer.user.id, type: "credit", amount: "1.01", description: "Over" },
      ],
    ] as const) {
      const before = await t.database.query<{ n: number }>("select count(*)::int as n from journal_entries");
      const res = await asAdmin("POST", url, payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        message: "A wallet can hold at most $10,000,000,000.00",
        walletLimitExceeded: true,
      });
      const after = await t.database.query<{ n: number }>("select count(*)::int as n from journal_entries");
      expect(after[0]!.n).toBe(before[0]!.n);
    }
    // Up to the cap exactly is fine.
    const exact = await asAdmin("POST", "/api/admin/incoming-payments", {
      userId: customer.user.id,
      amount: "1.00",
      status: "completed",
    });
    expect(exact.statusCode).toBe(201);
    expect(await balanceOf(customer)).toBe("$10,000,000,000.00");
  });
});

describe("only customers with an open account receive money (docs/architecture.md 'Staff roles')", () => {
  it("refuses credits and incoming payments, pending or completed, to a customer whose account is not open", async () => {
    const applicant = await createVerifiedUser(t.database);
    await insertKycApplication(t.database, applicant, "pending");
    const rejected = await createApprovedCustomer(t.database);
    await t.database.query("update account_requests set status = 'rejected' where user_id = $1", [
      rejected.user.id,
    ]);
    for (const customer of [applicant, rejected]) {
      const userId = customer.user.id;
      for (const [url, payload] of [
        ["/api/admin/incoming-payments", { userId, amount: "25.00" }],
        ["/api/admin/incoming-payments", { userId, amount: "25.00", status: "completed" }],
        ["/api/admin/incoming-payments", { userId, amount: "2500.00", status: "completed", reason: "Wire" }],
        ["/api/admin/transactions", { userId, amount: "25.00", description: "Refund" }],
        ["/api/admin/transactions", { userId, amount: "25.00", description: "Refund", status: "pending" }],
        ["/api/admin/transactions", { userId, amount: "2500.00", description: "Bonus", reason: "Promo" }],
      ] as const) {
        const res = await asAdmin("POST", url, payload);
        expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(409);
        expect(res.json()).toMatchObject({ accountNotOpen: true, message: PAYMENT_MESSAGES.accountNotOpen });
      }
      const [row] = await t.database.query<{ n: number }>(
        `select (select count(*) from transactions where user_id = $1)
              + (select count(*) from incoming_payments where user_id = $1)
              + (select count(*) from approvals where user_id = $1) as n`,
        [userId],
      );
      expect(Number(row!.n)).toBe(0);
      expect(await balanceOf(customer)).toBe("$0.00");
    }
  });

  it("lists only customers with an open account in the payment and credit pickers", async () => {
    const open = await createApprovedCustomer(t.database, { lastName: "Pickeropen" });
    const waiting = await createVerifiedUser(t.database, { lastName: "Pickerwaiting" });
    await insertKycApplication(t.database, waiting, "approved");
    const staffer = await createVerifiedUser(t.database, {
      lastName: "Pickerstaff",
      staffRoles: ["support"],
    });
    const res = await asAdmin("GET", "/api/admin/users?role=open_account&q=Picker&limit=200");
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().items.map((u: { id: string }) => u.id);
    expect(ids).toEqual([open.user.id]);
    expect(ids).not.toContain(waiting.user.id);
    expect(ids).not.toContain(staffer.user.id);
  });
});

describe("incoming payments", () => {
  it("starts pending with the spec's blank defaults and credits once on completed", async () => {
    const customer = await createApprovedCustomer(t.database);
    const created = await asAdmin("POST", "/api/admin/incoming-payments", {
      userId: customer.user.id,
      amount: "250.75",
    });
    expect(created.statusCode).toBe(201);
    const payment = created.json().payment;
    expect(payment).toMatchObject({
      status: "pending",
      description: "Incoming Payment",
      paymentFor: "Payment",
      fromAccount: "External Account",
      fromRouting: "000000000",
      recipientName: "Unknown Recipient",
      formattedAmount: "$250.75",
    });
    expect(await balanceOf(customer)).toBe("$0.00");

    const done = await asAdmin("PUT", `/api/admin/incoming-payments/${payment.id}`, { status: "completed" });
    expect(done.statusCode).toBe(200);
    expect(done.json().userBalance).toBe("$250.75");
    expect(await balanceOf(customer)).toBe("$250.75");
    const again = await asAdmin("PUT", `/api/admin/incoming-payments/${payment.id}`, { status: "completed" });
    expect(again.statusCode).toBe(409);
    expect(await balanceOf(customer)).toBe("$250.75");
    const history = (await as(customer, "/api/transactions/recent")).json();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ type: "incoming_payment", status: "completed", amount: "250.75" });
  });

  it("goes to the customer's own open account when no account is given", async () => {
    const customer = await createApprovedCustomer(t.database);
    const [own] = await t.database.query<{ account_number: string; routing_number: string }>(
      "select account_number, routing_number from account_requests where user_id = $1",
      [customer.user.id],
    );
    const created = await asAdmin("POST", "/api/admin/incoming-payments", {
      userId: customer.user.id,
      amount: "10.00",
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().payment.toAccount).toEqual({
      accountNumber: own!.account_number,
      routingNumber: own!.routing_number,
    });
    const given = await asAdmin("POST", "/api/admin/incoming-payments", {
      userId: customer.user.id,
      amount: "10.00",
      toAccount: "123456789",
      toRouting: "111000025",
    });
    expect(given.json().payment.toAccount).toEqual({
      accountNumber: "123456789",
      routingNumber: "111000025",
    });
    await expectLedgerClean(t.database);
  });

  it("posts exactly once when two admins complete it at the same time", async () => {
    const customer = await createApprovedCustomer(t.database);
    const { payment } = (
      await asAdmin("POST", "/api/admin/incoming-payments", { userId: customer.user.id, amount: 80 })
    ).json();
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        asAdmin("PUT", `/api/admin/incoming-payments/${payment.id}`, { status: "completed" }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(await balanceOf(customer)).toBe("$80.00");
  });

  it("refuses a missing user, a bad amount and a missing status", async () => {
    const customer = await createApprovedCustomer(t.database);
    const noUser = await asAdmin("POST", "/api/admin/incoming-payments", { amount: 5 });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json().message).toBe("Please select a user and enter payment amount");
    for (const amount of [0, -3, "1.001", "ten"]) {
      const res = await asAdmin("POST", "/api/admin/incoming-payments", { userId: customer.user.id, amount });
      expect(res.statusCode, String(amount)).toBe(400);
    }
    const { payment } = (
      await asAdmin("POST", "/api/admin/incoming-payments", { userId: customer.user.id, amount: 5 })
    ).json();
    const noStatus = await asAdmin("PUT", `/api/admin/incoming-payments/${payment.id}`, {});
    expect(noStatus.statusCode).toBe(400);
    expect(noStatus.json().message).toBe("Please select a payment status");
  });
});

describe("admin credits", () => {
  it("creates only credits, and posts when they reach completed, exactly once", async () => {
    const customer = await createApprovedCustomer(t.database);
    const debit = await asAdmin("POST", "/api/admin/transactions", {
      userId: customer.user.id,
      type: "debit",
      amount: 5,
      description: "x",
    });
    expect(debit.statusCode).toBe(400);
    const created = await asAdmin("POST", "/api/admin/transactions", {
      userId: customer.user.id,
      type: "credit",
      amount: "45.10",
      description: "Refund",
      category: "shopping",
      status: "initiated",
    });
    expect(created.statusCode).toBe(201);
    expect(await balanceOf(customer)).toBe("$0.00");
    const id = created.json().id;
    expect((await asAdmin("PUT", `/api/admin/transactions/${id}`, { status: "in_review" })).statusCode).toBe(
      200,
    );
    expect((await asAdmin("PUT", `/api/admin/transactions/${id}`, { status: "completed" })).statusCode).toBe(
      200,
    );
    expect(await balanceOf(customer)).toBe("$45.10");
    expect((await asAdmin("PUT", `/api/admin/transactions/${id}`, { status: "completed" })).statusCode).toBe(
      409,
    );
    expect(await balanceOf(customer)).toBe("$45.10");
  });

  it("refuses missing description with the spec's message", async () => {
    const customer = await createVerifiedUser(t.database);
    const res = await asAdmin("POST", "/api/admin/transactions", { userId: customer.user.id, amount: 5 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("Please fill in all required fields");
  });
});

describe("balance edits", () => {
  it("posts an adjustment for the difference instead of overwriting", async () => {
    const customer = await createFundedCustomer(t, admin, "100");
    // Maker-checker (decision 007): every adjustment waits for a second finance member, then posts the
    // difference.
    const checker = await createVerifiedUser(t.database, { staffRoles: ["finance"] });
    const adjust = async (accountBalance: string) => {
      const asked = await asAdmin("PUT", `/api/admin/users/${customer.user.id}/balance`, {
        accountBalance,
        reason: "Correction",
      });
      expect(asked.statusCode, asked.body).toBe(202);
      return t.app.inject({
        method: "POST",
        url: `/api/admin/approvals/${asked.json().approval.id}/approve`,
        headers: { cookie: checker.cookie },
        payload: {},
      });
    };
    const up = await adjust("$1,000.00");
    expect(up.statusCode).toBe(200);
    expect(up.json().result).toEqual({ accountBalance: "$1,000.00" });
    const down = await adjust("250");
    expect(down.json().result).toEqual({ accountBalance: "$250.00" });
    const [row] = await t.database.query<{ n: string }>(
      "select count(*)::text as n from journal_entries where kind = 'balance_adjustment' and reference_id = $1",
      [customer.user.id],
    );
    expect(row.n).toBe("2");
    const audit = await t.database.query(
      "select * from audit_log where action = 'user.adjust_balance' and target_id = $1",
      [customer.user.id],
    );
    expect(audit).toHaveLength(2);
  });

  it("refuses free text that is not money, and a balance below what is held", async () => {
    const customer = await createFundedCustomer(t, admin, "100");
    for (const accountBalance of ["", "  ", "abc", "-5", "1.001"]) {
      const res = await asAdmin("PUT", `/api/admin/users/${customer.user.id}/balance`, { accountBalance });
      expect(res.statusCode, accountBalance).toBe(400);
    }
    await t.app.inject({
      method: "POST",
      url: "/api/transfer/request",
      headers: { cookie: customer.cookie },
      payload: {
        amount: 60,
        recipientName: "A",
        purpose: "Rent",
        paymentMethod: "crypto",
        cryptoAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
      },
    });
    const res = await asAdmin("PUT", `/api/admin/users/${customer.user.id}/balance`, {
      accountBalance: "50",
      reason: "Correction",
    });
    expect(res.statusCode).toBe(409);
    expect(await balanceOf(customer)).toBe("$100.00");
  });

  it("refuses to delete a customer who still has money", async () => {
    const customer = await createApprovedCustomer(t.database);
    await fundCustomer(t, admin, customer.user.id, "1");
    const res = await t.app.inject({
      method: "DELETE",
      url: `/api/admin/users/${customer.user.id}`,
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/still has money/);
  });
});

describe("history, export and statistics", () => {
  it("pages a customer's history newest first and exports it as CSV that spreadsheets cannot execute", async () => {
    const customer = await createApprovedCustomer(t.database);
    const other = await createVerifiedUser(t.database);
    for (const amount of ["1", "2", "3"]) await fundCustomer(t, admin, customer.user.id, amount);
    await asAdmin("POST", "/api/admin/transactions", {
      userId: customer.user.id,
      amount: 4,
      description: '=HYPERLINK("x")',
    });

    const first = (await as(customer, "/api/transactions?limit=2")).json();
    expect(first.items.map((i: { amount: string }) => i.amount)).toEqual(["4.00", "3.00"]);
    const second = (await as(customer, `/api/transactions?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.items.map((i: { amount: string }) => i.amount)).toEqual(["2.00", "1.00"]);
    expect(second.nextCursor).toBeNull();
    expect((await as(customer, "/api/transactions?cursor=garbage")).statusCode).toBe(400);
    expect((await as(customer, "/api/transactions?limit=1000")).statusCode).toBe(400);

    const csv = await as(customer, "/api/transactions/export.csv");
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toBe("id,date,type,description,category,status,amount,fee,net_amount");
    expect(lines).toHaveLength(5);
    expect(csv.body).toContain(`"'=HYPERLINK(""x"")"`);
    expect((await as(other, "/api/transactions/recent")).json()).toEqual([]);
    expect((await as(other, "/api/transactions/export.csv")).body.trim().split("\r\n")).toHaveLength(1);
  });

  it("reports stats from the ledger and verifies it for admins only", async () => {
    const customer = await createFundedCustomer(t, admin, "10");
    const stats = (await asAdmin("GET", "/api/admin/stats")).json();
    expect(stats.activeAccounts).toBeGreaterThanOrEqual(1);
    expect(stats.transactions).toBeGreaterThanOrEqual(1);
    expect(stats.totalBalance).toMatch(/^\$[\d,]+\.\d\d$/);
    const verify = await asAdmin("GET", "/api/admin/ledger/verify");
    expect(verify.json()).toMatchObject({ ok: true, problems: [] });
    expect((await as(customer, "/api/admin/ledger/verify")).statusCode).toBe(403);
  });
});

describe("dashboard content", () => {
  it("serves the spec's defaults, an admin's overrides, and restores a default on empty", async () => {
    const customer = await createVerifiedUser(t.database, { pillarTag: "dash_user" });
    const own = (await as(customer, "/api/dashboard-content")).json();
    expect(own).toMatchObject({
      welcomeTitle: "Welcome back!",
      welcomeMessage: "Here's your account overview",
      balanceLabel: "Total Balance",
      cardName: "$dash_user",
      statusTitle: "Account Request Status",
      transactionTitle: "Recent Transactions",
      quickActionTitle: "Quick Actions",
    });
    // No made-up card number unless an admin sets one.
    expect(own.cardNumber).toBe("");
    const put = await asAdmin("PUT", `/api/admin/dashboard-content/${customer.user.id}`, {
      welcomeTitle: "Hello VIP",
      balanceLabel: "<img src=x onerror=alert(1)>",
    });
    expect(put.statusCode).toBe(200);
    expect((await as(customer, "/api/dashboard-content")).json()).toMatchObject({
      welcomeTitle: "Hello VIP",
      balanceLabel: "<img src=x onerror=alert(1)>",
    });
    await asAdmin("PUT", `/api/admin/dashboard-content/${customer.user.id}`, { welcomeTitle: "" });
    expect((await as(customer, "/api/dashboard-content")).json().welcomeTitle).toBe("Welcome back!");
    const tooLong = await asAdmin("PUT", `/api/admin/dashboard-content/${customer.user.id}`, {
      welcomeTitle: "x".repeat(201),
    });
    expect(tooLong.statusCode).toBe(400);
    const asCustomer = await t.app.inject({
      method: "PUT",
      url: `/api/admin/dashboard-content/${customer.user.id}`,
      headers: { cookie: customer.cookie },
      payload: { welcomeTitle: "hacked" },
    });
    expect(asCustomer.statusCode).toBe(403);
  });
});
