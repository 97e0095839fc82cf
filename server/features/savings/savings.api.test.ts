import { describe, expect, it } from "vitest";
import { accrueInterestThrough } from "@/server/features/savings/interest";
import { moveSavings } from "@/server/features/savings/move-savings";
import { openSavings } from "@/server/features/savings/savings";
import {
  createApprovedCustomer,
  createFundedCustomer,
  expectLedgerCleanAfterEach,
  fundCustomer,
} from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { createVerifiedUser, type SignedInUser, setUpAdminUser } from "@/tests/support/users";

// Savings at the advertised 2.5 % APY (decision 068): opening, moving money both ways through the one
// call, every refusal, and interest exact to the cent over a whole year, leap or not. Every test ends with the
// ledger verified.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);

let keyCounter = 0;
const open = (who: SignedInUser) =>
  t.app.inject({ method: "POST", url: "/api/savings", headers: { cookie: who.cookie } });
const overview = async (who: SignedInUser) =>
  (await t.app.inject({ method: "GET", url: "/api/savings", headers: { cookie: who.cookie } })).json();
const move = (
  who: SignedInUser,
  body: Record<string, unknown>,
  key: string | null = `move-${++keyCounter}`,
) =>
  t.app.inject({
    method: "POST",
    url: "/api/savings/moves",
    headers: { cookie: who.cookie, ...(key === null ? {} : { "idempotency-key": key }) },
    payload: body,
  });
const summary = async (who: SignedInUser) =>
  (
    await t.app.inject({ method: "GET", url: "/api/account/summary", headers: { cookie: who.cookie } })
  ).json();
const history = async (who: SignedInUser) =>
  (await t.app.inject({ method: "GET", url: "/api/transactions", headers: { cookie: who.cookie } })).json();
const withoutRequestId = (body: Record<string, unknown>) => {
  const { requestId: _id, ...rest } = body;
  return rest;
};

describe("opening savings", () => {
  it("offers 2.50% APY, opens one account per customer, and refuses who cannot bank", async () => {
    const customer = await createApprovedCustomer(t.database);
    const before = await overview(customer);
    expect(before).toEqual({
      rate: { apy: "2.50%", apyBps: 250, since: "2000-01-01" },
      nextRate: null,
      account: null,
    });

    const opened = await open(customer);
    expect(opened.statusCode, opened.body).toBe(201);
    const account = opened.json().account;
    expect(account).toMatchObject({
      balance: { amount: "$0.00", cents: 0 },
      accruedThisMonth: { amount: "$0.00", cents: 0 },
      earnedThisYear: { amount: "$0.00", cents: 0 },
      earnedAllTime: { amount: "$0.00", cents: 0 },
      accruedThrough: null,
      goals: [],
    });
    const again = await open(customer);
    expect(again.statusCode).toBe(409);
    expect(withoutRequestId(again.json())).toEqual({
      message: "You already have a savings account",
      code: "CONFLICT",
      reason: "savings_already_open",
      savingsAlreadyOpen: true,
    });

    // Two at once: one account.
    const racer = await createApprovedCustomer(t.database);
    const both = await Promise.all([open(racer), open(racer), open(racer)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    const rows = await t.database.query(
      "select count(*)::int as n from savings_accounts where user_id = $1",
      [racer.user.id],
    );
    expect(rows[0]).toEqual({ n: 1 });

    const notOpen = await createVerifiedUser(t.database);
    expect((await open(notOpen)).json().reason).toBe("setup_incomplete");
    const frozen = await createApprovedCustomer(t.database);
    await t.database.query("update users set frozen_at = now() where id = $1", [frozen.user.id]);
    expect((await open(frozen)).json().reason).toBe("account_frozen");
    const staffOpen = await open(admin);
    expect(staffOpen.statusCode).toBe(403);
    expect(staffOpen.json().reason).toBe("staff_account");
    const signedOut = await t.app.inject({ method: "POST", url: "/api/savings" });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe("moving money between checking and savings", () => {
  it("moves both ways in one entry, shows it in checking's history, and replays a repeated key", async () => {
    const customer = await createFundedCustomer(t, admin, "1000.00");
    expect((await open(customer)).statusCode).toBe(201);

    const moved = await move(customer, { direction: "to_savings", amount: "500" }, "first-move");
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json()).toMatchObject({
      message: "Money moved",
      move: { direction: "to_savings", amount: "$500.00", amountCents: 50000, goalId: null },
    });
    expect((await summary(customer)).availableBalance).toBe("$500.00");
    expect((await overview(customer)).account.balance).toEqual({ amount: "$500.00", cents: 50000 });

    const replay = await move(customer, { direction: "to_savings", amount: "500.00" }, "first-move");
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual(moved.json());
    const mismatch = await move(customer, { direction: "to_savings", amount: "400" }, "first-move");
    expect(mismatch.statusCode).toBe(409);
    expect((await summary(customer)).availableBalance).toBe("$500.00");

    const back = await move(customer, { direction: "to_checking", amount: "120.25" });
    expect(back.statusCode, back.body).toBe(201);
    expect((await summary(customer)).availableBalance).toBe("$620.25");
    expect((await overview(customer)).account.balance.amount).toBe("$379.75");

    const lines = (await history(customer)).items as { description: string; type: string; amount: string }[];
    expect(lines.slice(0, 2)).toMatchObject([
      { description: "From Savings", type: "credit", amount: "120.25" },
      { description: "To Savings", type: "debit", amount: "500.00" },
    ]);
  });

  it("refuses every bad move with its message, writing nothing", async () => {
    const customer = await createFundedCustomer(t, admin, "100.00");
    const noSavings = await move(customer, { direction: "to_savings", amount: "10" });
    expect(noSavings.statusCode).toBe(409);
    expect(withoutRequestId(noSavings.json())).toEqual({
      message: "Open a savings account first",
      code: "CONFLICT",
      reason: "savings_not_open",
      savingsNotOpen: true,
    });
    await open(customer);

    const noKey = await move(customer, { direction: "to_savings", amount: "10" }, null);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().reason).toBe("idempotency_key_required");
    for (const [amount, message] of [
      ["0", "Amount must be greater than $0"],
      ["-5", "Amount must be greater than $0"],
      ["1.234", "Amount must be a dollar amount with at most 2 decimals"],
      ["1e3", "Amount must be a dollar amount with at most 2 decimals"],
      ["abc", "Amount must be a dollar amount with at most 2 decimals"],
      ["99999999999999999", "Amount must be a dollar amount with at most 2 decimals"],
    ] as const) {
      const res = await move(customer, { direction: "to_savings", amount });
      expect(res.statusCode, amount).toBe(400);
      expect(res.json().message, amount).toBe(message);
    }
    for (const body of [
      { direction: "sideways", amount: "1" },
      { direction: "to_savings" },
      { direction: "to_savings", amount: "1", extra: true },
      { direction: "to_savings", amount: "1", goalId: "not-a-uuid" },
    ]) {
      expect((await move(customer, body)).statusCode, JSON.stringify(body)).toBe(400);
    }

    const tooMuch = await move(customer, { direction: "to_savings", amount: "100.01" });
    expect(tooMuch.statusCode).toBe(422);
    expect(withoutRequestId(tooMuch.json())).toEqual({
      message: "Not enough available in Checking for this move ($100.00 available)",
      code: "UNPROCESSABLE",
      reason: "insufficient_funds",
      insufficientFunds: true,
      availableBalance: "$100.00",
    });
    expect((await move(customer, { direction: "to_savings", amount: "40" })).statusCode).toBe(201);
    const overdrawSavings = await move(customer, { direction: "to_checking", amount: "40.01" });
    expect(overdrawSavings.statusCode).toBe(422);
    expect(overdrawSavings.json().message).toBe("Not enough in Savings for this move ($40.00 available)");

    // Another customer's goal is no goal of theirs.
    const other = await createApprovedCustomer(t.database);
    await open(other);
    const goal = await t.app.inject({
      method: "POST",
      url: "/api/savings/goals",
      headers: { cookie: other.cookie },
      payload: { name: "Bike", target: "300" },
    });
    expect(goal.statusCode, goal.body).toBe(201);
    const goalId = goal.json().account.goals[0].id as string;
    const borrowed = await move(customer, { direction: "to_savings", amount: "1", goalId });
    expect(borrowed.statusCode).toBe(404);
    expect(borrowed.json().reason).toBe("savings_goal_not_found");

    await t.database.query("update users set frozen_at = now() where id = $1", [customer.user.id]);
    expect((await move(customer, { direction: "to_checking", amount: "1" })).json().reason).toBe(
      "account_frozen",
    );
    await t.database.query("update users set frozen_at = null where id = $1", [customer.user.id]);
    const staff = await move(admin, { direction: "to_savings", amount: "1" });
    expect(staff.statusCode).toBe(403);

    // Nothing above moved money but the one $40.
    expect((await summary(customer)).availableBalance).toBe("$60.00");
    expect((await overview(customer)).account.balance.amount).toBe("$40.00");
    const rows = await t.database.query("select count(*)::int as n from savings_moves where user_id = $1", [
      customer.user.id,
    ]);
    expect(rows[0]).toEqual({ n: 1 });
  });

  it("never moves more than there is when many moves race", async () => {
    const customer = await createFundedCustomer(t, admin, "500.00");
    await open(customer);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => move(customer, { direction: "to_savings", amount: "100" })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(5);
    expect((await summary(customer)).availableBalance).toBe("$0.00");
    expect((await overview(customer)).account.balance.amount).toBe("$500.00");
  });

  it("counts a goal's progress from the moves that name it", async () => {
    const customer = await createFundedCustomer(t, admin, "300.00");
    await open(customer);
    const made = await t.app.inject({
      method: "POST",
      url: "/api/savings/goals",
      headers: { cookie: customer.cookie },
      payload: { name: "Emergency fund", target: "1000", targetDate: "2027-06-30" },
    });
    const goalId = made.json().account.goals[0].id as string;
    await move(customer, { direction: "to_savings", amount: "250", goalId });
    await move(customer, { direction: "to_checking", amount: "50", goalId });
    await move(customer, { direction: "to_savings", amount: "25" });
    expect((await overview(customer)).account.goals).toEqual([
      {
        id: goalId,
        name: "Emergency fund",
        target: "$1,000.00",
        targetCents: 100000,
        targetDate: "2027-06-30",
        saved: "$200.00",
        savedCents: 20000,
      },
    ]);
    const lines = (await history(customer)).items as { description: string }[];
    expect(lines.map((l) => l.description).slice(0, 3)).toEqual([
      "To Savings",
      "From Savings: Emergency fund",
      "To Savings: Emergency fund",
    ]);
  });
});

describe("interest", () => {
  it("pays exactly 2.5% on $10,000 held a whole year, in a leap year too, once however often the job runs", async () => {
    // Its transactions are written on those days: on PostgreSQL their months' partitions must exist (the partitions
    // loop keeps three months ahead of the real clock, decision 063).
    await t.database.query("select partitions_premake(30)");
    const years = [2026, 2028];
    const savers: { year: number; id: string }[] = [];
    for (const year of years) {
      const customer = await createApprovedCustomer(t.database);
      await fundCustomer(t, admin, customer.user.id, "10000.00");
      // Opened and filled on 1 January, New York (05:00 UTC is midnight there in winter).
      const overview = await openSavings(
        t.database.db,
        customer.user.id,
        new Date(`${year}-01-01T05:00:00Z`),
      );
      const result = await moveSavings(
        t.database.db,
        customer.user.id,
        { direction: "to_savings", amount: "10000" },
        `year-${year}`,
        new Date(`${year}-01-01T05:00:00.000Z`),
      );
      expect(result.statusCode).toBe(201);
      savers.push({ year, id: overview.account!.id });
    }
    const first = await accrueInterestThrough(t.database.db, "2028-12-31");
    expect(first.monthsCredited).toBeGreaterThan(0);
    const again = await accrueInterestThrough(t.database.db, "2028-12-31");
    expect(again).toEqual({ accountDays: 0, monthsCredited: 0, accountsCredited: 0 });

    // Each credit told the customer once, after its commit by the jobs room: a notification (Deposits and
    // credits) and an e-mail.
    await t.app.jobs.drainConsumers();
    const told = await t.database.query(
      `select (select count(*)::int from notifications n where n.user_id = s.user_id and n.title = 'Interest paid')
                as notices,
              (select count(*)::int from mail_outbox m join users u on u.email = m.to_address
                where u.id = s.user_id and m.kind = 'interest_paid') as mails,
              (select count(*)::int from savings_interest i where i.account_id = s.account_id and i.credited_cents > 0)
                as credits
         from savings_accounts s where s.account_id = $1`,
      [savers[1]!.id],
    );
    expect(told[0]).toEqual({ notices: 12, mails: 12, credits: 12 });

    for (const { year, id } of savers) {
      const rows = await t.database.query(
        `select coalesce(sum(credited_cents), 0)::int as cents, count(*)::int as months, sum(days)::int as days
           from savings_interest where account_id = $1 and month >= $2::date and month < $3::date`,
        [id, `${year}-01-01`, `${year + 1}-01-01`],
      );
      const { cents, months, days } = rows[0] as { cents: number; months: number; days: number };
      expect(months).toBe(12);
      expect(days).toBe(year === 2028 ? 366 : 365);
      // $250.00 ± $0.01: what is below the cent is carried, never lost or paid twice.
      expect(Math.abs(cents - 25_000), `${year}: ${cents}`).toBeLessThanOrEqual(1);
      // Regulation DD's APY earned (Appendix A) on the year's interest and balance: 2.50 %.
      const apyEarned = 100 * ((1 + cents / 1_000_000) ** (365 / 365) - 1);
      expect(apyEarned.toFixed(2)).toBe("2.50");
    }
  });
});
