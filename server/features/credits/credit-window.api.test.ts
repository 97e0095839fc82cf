import { describe, expect, it } from "vitest";
import { APPROVAL_MESSAGES } from "@/contract/approvals";
import { approveAsSecond, createApprovedCustomer, expectLedgerCleanAfterEach } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser } from "@/tests/support/users";

// Attack: splitting a large credit into pieces under APPROVAL_THRESHOLD ($1,000.00). The threshold holds over
// 24 hours per maker and per receiving customer (decision 017).
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
expectLedgerCleanAfterEach(t);

const finance = () => createVerifiedUser(t.database, { staffRoles: ["finance"] });
const post = (who: SignedInUser, url: string, payload: object) =>
  t.app.inject({ method: "POST", url, headers: { cookie: who.cookie }, payload });
const put = (who: SignedInUser, url: string, payload: object) =>
  t.app.inject({ method: "PUT", url, headers: { cookie: who.cookie }, payload });
const credit = (who: SignedInUser, userId: string, amount: string, extra: object = {}) =>
  post(who, "/api/admin/transactions", { userId, amount, description: "Goodwill", ...extra });
const payment = (who: SignedInUser, userId: string, amount: string, extra: object = {}) =>
  post(who, "/api/admin/incoming-payments", { userId, amount, status: "completed", ...extra });

const balanceCents = async (userId: string) =>
  Number(
    (
      await t.database.query<{ balance: string }>(
        "select coalesce(sum(p.amount), 0)::text as balance from postings p join ledger_accounts a on a.id = p.account_id where a.user_id = $1",
        [userId],
      )
    )[0]!.balance,
  );
const pendingApprovals = async (userId: string) =>
  (
    await t.database.query<{ n: number }>(
      "select count(*)::int as n from approvals where user_id = $1 and status = 'pending'",
      [userId],
    )
  )[0]!.n;

describe("splitting a credit under the threshold", () => {
  it("ten $999.99 credits in a row: the first completes, the second needs a reason, the rest wait with the window's total", async () => {
    const maker = await finance();
    const customer = await createApprovedCustomer(t.database);
    const first = await credit(maker, customer.user.id, "999.99");
    expect(first.statusCode, first.body).toBe(201);

    // The second takes both totals past $1,000.00: like a large credit, it needs a reason and writes nothing.
    const bare = await credit(maker, customer.user.id, "999.99");
    expect(bare.statusCode, bare.body).toBe(400);
    expect(bare.json()).toMatchObject({ message: APPROVAL_MESSAGES.reasonRequired, reasonRequired: true });
    expect(await pendingApprovals(customer.user.id)).toBe(0);

    const answers = [];
    for (let i = 0; i < 9; i++) {
      answers.push(await credit(maker, customer.user.id, "999.99", { reason: `Split ${i}` }));
    }
    expect(answers.map((a) => a.statusCode)).toEqual(Array(9).fill(202));
    // Waiting credits count too: the ninth shows what the maker would have moved in the day.
    expect(answers[8]!.json().approval.creditWindow).toEqual({ makerCents: 999_990, customerCents: 999_990 });
    expect(answers[0]!.json().approval.creditWindow).toEqual({ makerCents: 199_998, customerCents: 199_998 });
    expect(await balanceCents(customer.user.id)).toBe(99_999);
    expect(await pendingApprovals(customer.user.id)).toBe(9);

    // The same split through incoming payments created as completed.
    const other = await createApprovedCustomer(t.database);
    const maker2 = await finance();
    expect((await payment(maker2, other.user.id, "999.99")).statusCode).toBe(201);
    const second = await payment(maker2, other.user.id, "999.99", { reason: "Second wire" });
    expect(second.statusCode, second.body).toBe(202);
    expect(second.json().approval.creditWindow).toEqual({ makerCents: 199_998, customerCents: 199_998 });
    expect(await balanceCents(other.user.id)).toBe(99_999);
  });

  it("ten concurrent $999.99 credits by one maker: exactly one completes", async () => {
    for (const send of [credit, payment]) {
      const maker = await finance();
      const customer = await createApprovedCustomer(t.database);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          send(maker, customer.user.id, "999.99", { reason: `Race ${i}` }),
        ),
      );
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes).toEqual([201, ...Array(9).fill(202)]);
      expect(await balanceCents(customer.user.id)).toBe(99_999);
      // Serialised: every waiting one saw all those before it, so the totals are $1,999.98 … $9,999.90.
      const totals = answers
        .filter((a) => a.statusCode === 202)
        .map((a) => a.json().approval.creditWindow.makerCents)
        .sort((a: number, b: number) => a - b);
      expect(totals).toEqual(Array.from({ length: 9 }, (_, i) => 99_999 * (i + 2)));
    }
  });

  it("holds per maker across two customers and per customer across two makers, also when raced", async () => {
    const maker = await finance();
    const [a, b] = [await createApprovedCustomer(t.database), await createApprovedCustomer(t.database)];
    expect((await credit(maker, a.user.id, "600.00")).statusCode).toBe(201);
    const toB = await credit(maker, b.user.id, "600.00", { reason: "Second customer" });
    expect(toB.statusCode, toB.body).toBe(202);
    expect(toB.json().approval.creditWindow).toEqual({ makerCents: 120_000, customerCents: 60_000 });

    const [m1, m2] = [await finance(), await finance()];
    const c = await createApprovedCustomer(t.database);
    expect((await payment(m1, c.user.id, "600.00")).statusCode).toBe(201);
    const fromM2 = await payment(m2, c.user.id, "600.00", { reason: "Second maker" });
    expect(fromM2.statusCode, fromM2.body).toBe(202);
    expect(fromM2.json().approval.creditWindow).toEqual({ makerCents: 60_000, customerCents: 120_000 });

    // Raced: one maker, two customers; and two makers, one customer.
    const racer = await finance();
    const [d, e] = [await createApprovedCustomer(t.database), await createApprovedCustomer(t.database)];
    const byMaker = await Promise.all(
      [d, e, d, e].map((who, i) => credit(racer, who.user.id, "600.00", { reason: `r${i}` })),
    );
    expect(byMaker.map((r) => r.statusCode).sort()).toEqual([201, 202, 202, 202]);
    const [n1, n2, n3] = [await finance(), await finance(), await finance()];
    const f = await createApprovedCustomer(t.database);
    const byCustomer = await Promise.all(
      [n1, n2, n3].map((who, i) => payment(who, f.user.id, "600.00", { reason: `r${i}` })),
    );
    expect(byCustomer.map((r) => r.statusCode).sort()).toEqual([201, 202, 202]);
    expect(await balanceCents(f.user.id)).toBe(60_000);
  });

  it("exactly the threshold over the window completes; one cent more waits", async () => {
    const maker = await finance();
    const customer = await createApprovedCustomer(t.database);
    expect((await payment(maker, customer.user.id, "600.00")).statusCode).toBe(201);
    expect((await credit(maker, customer.user.id, "400.00")).statusCode).toBe(201);
    const cent = await credit(maker, customer.user.id, "0.01", { reason: "Rounding" });
    expect(cent.statusCode, cent.body).toBe(202);
    expect(cent.json().approval.creditWindow).toEqual({ makerCents: 100_001, customerCents: 100_001 });
    expect(await balanceCents(customer.user.id)).toBe(100_000);
  });

  it("checks a pending credit or payment when it completes later, and counts approved but not rejected ones", async () => {
    const maker = await finance();
    const checker = await finance();
    const customer = await createApprovedCustomer(t.database);
    // Pending credits move nothing and do not count until they complete.
    const pendingCredit = await credit(maker, customer.user.id, "700.00", { status: "pending" });
    const pendingPayment = await post(maker, "/api/admin/incoming-payments", {
      userId: customer.user.id,
      amount: "700.00",
    });
    expect([pendingCredit.statusCode, pendingPayment.statusCode]).toEqual([201, 201]);
    const done = await put(maker, `/api/admin/transactions/${pendingCredit.json().id}`, {
      status: "completed",
    });
    expect(done.statusCode, done.body).toBe(200);
    const completing = await put(maker, `/api/admin/incoming-payments/${pendingPayment.json().payment.id}`, {
      status: "completed",
      reason: "Wire arrived",
    });
    expect(completing.statusCode, completing.body).toBe(202);
    expect(completing.json().approval.creditWindow).toEqual({ makerCents: 140_000, customerCents: 140_000 });

    // Rejected: no longer counts, so a small one completes again… (the window is $700.00 + $200.00).
    const rejected = await post(checker, `/api/admin/approvals/${completing.json().approval.id}/reject`, {
      reason: "Duplicate",
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((await credit(maker, customer.user.id, "200.00")).statusCode).toBe(201);

    // …approved: counts, so the next credit waits too, even a small one.
    const big = await credit(maker, customer.user.id, "1500.00", { reason: "Settlement" });
    expect((await approveAsSecond(t, big, checker)).statusCode).toBe(200);
    const small = await credit(maker, customer.user.id, "1.00", { reason: "Small" });
    expect(small.statusCode, small.body).toBe(202);
    expect(small.json().approval.creditWindow).toEqual({ makerCents: 240_100, customerCents: 240_100 });
    expect(await balanceCents(customer.user.id)).toBe(240_000);
  });

  it("forgets credits older than 24 hours", async () => {
    const maker = await finance();
    const customer = await createApprovedCustomer(t.database);
    const old = await credit(maker, customer.user.id, "900.00");
    expect(old.statusCode).toBe(201);
    await t.database.query(
      "update journal_entries set created_at = now() - interval '24 hours 1 second' where reference_id = $1",
      [old.json().id],
    );
    expect((await credit(maker, customer.user.id, "900.00")).statusCode).toBe(201);
  });
});
