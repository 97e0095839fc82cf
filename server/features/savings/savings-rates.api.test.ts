import { describe, expect, it } from "vitest";
import type { ApprovalActions } from "@/server/features/approvals/approval-actions";
import { decideApproval } from "@/server/features/approvals/decide-approval";
import { accrueInterestThrough } from "@/server/features/savings/interest";
import { moveSavings } from "@/server/features/savings/move-savings";
import { openSavings } from "@/server/features/savings/savings";
import { approveSavingsRate, sendRateNotices } from "@/server/features/savings/savings-rates";
import { addDays } from "@/server/features/schedules/schedule-dates";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { createApprovedCustomer, expectLedgerCleanAfterEach, fundCustomer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { type SignedInUser, setUpVerifiedUser } from "@/tests/support/users";

// The savings rate's maker-checker and finance's figures (decision 071): an owner proposes, a
// second finance member or owner approves, the rate applies from its day, customers are told once; every test ends
// with the ledger verified.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const staff = {
  owner: setUpVerifiedUser(t, { staffRoles: ["owner"] }),
  owner2: setUpVerifiedUser(t, { staffRoles: ["owner"] }),
  finance: setUpVerifiedUser(t, { staffRoles: ["finance"] }),
  finance2: setUpVerifiedUser(t, { staffRoles: ["finance"] }),
  compliance: setUpVerifiedUser(t, { staffRoles: ["compliance"] }),
};
expectLedgerCleanAfterEach(t);

const call = (who: SignedInUser, method: "GET" | "POST", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload ? { payload } : {}) });
const propose = (who: SignedInUser, apyBps: number, effectiveOn: string) =>
  call(who, "POST", "/api/admin/savings/rates", { apyBps, effectiveOn, reason: "Fed cut" });
const approve = (who: SignedInUser, id: string) =>
  call(who, "POST", `/api/admin/approvals/${id}/approve`, {});
const reject = (who: SignedInUser, id: string) =>
  call(who, "POST", `/api/admin/approvals/${id}/reject`, { reason: "Too generous" });
const history = async () => (await call(staff.finance, "GET", "/api/admin/savings/rates")).json();
const rateOf = async (effectiveOn: string) =>
  (await history()).rates.find((r: { effectiveOn: string }) => r.effectiveOn === effectiveOn);

const today = () => limitDayOf(new Date());

/** A customer with `dollars` in savings, opened and moved at `at`. */
async function saver(dollars: string, at: Date) {
  const customer = await createApprovedCustomer(t.database);
  await fundCustomer(t, staff.finance, customer.user.id, dollars);
  const overview = await openSavings(t.database.db, customer.user.id, at);
  const moved = await moveSavings(
    t.database.db,
    customer.user.id,
    { direction: "to_savings", amount: dollars },
    `saver-${customer.user.id}`,
    at,
  );
  expect(moved.statusCode).toBe(201);
  return { customer, accountId: overview.account!.id };
}

describe("proposing a savings rate", () => {
  it("holds an owner's proposal for approval (202), refuses finance (403) and a past or today's date", async () => {
    const day = addDays(today(), 40);
    const proposed = await propose(staff.owner, 300, day);
    expect(proposed.statusCode, proposed.body).toBe(202);
    expect(proposed.json()).toMatchObject({
      pendingApproval: true,
      approval: {
        kind: "savings_rate",
        status: "pending",
        user: null,
        summary: `Set the savings APY to 3.00% from ${day} (New York); customers with savings are told`,
        before: { apy: "2.50%" },
        after: { apy: "3.00%", effectiveOn: day },
      },
    });
    expect(await rateOf(day)).toMatchObject({
      apy: "3.00%",
      status: "proposed",
      proposedBy: { id: staff.owner.user.id, email: staff.owner.email },
      decidedBy: null,
      approvalId: proposed.json().approval.id,
      notice: null,
    });
    // One pending proposal per day.
    expect((await propose(staff.owner, 310, day)).statusCode).toBe(409);

    const byFinance = await propose(staff.finance, 300, addDays(today(), 41));
    expect(byFinance.statusCode).toBe(403);
    expect(byFinance.json().roleRequired).toBe(true);

    for (const when of [today(), addDays(today(), -1)]) {
      const refused = await propose(staff.owner, 300, when);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        "The new rate must start on a future day (New York): interest already accrued never changes",
      );
    }
    for (const apyBps of [0, 2001, 2.5])
      expect((await propose(staff.owner, apyBps, day)).statusCode).toBe(400);
    expect((await call(staff.finance, "GET", "/api/admin/savings/rates")).statusCode).toBe(200);
    expect((await call(staff.compliance, "GET", "/api/admin/savings/rates")).statusCode).toBe(403);
  });

  it("refuses the maker's own approval and a compliance member's, and keeps a rejected rate in the history", async () => {
    const day = addDays(today(), 42);
    const id = (await propose(staff.owner, 325, day)).json().approval.id;
    const self = await approve(staff.owner, id);
    expect(self.statusCode).toBe(403);
    expect(self.json().selfApproval).toBe(true);
    expect((await approve(staff.compliance, id)).statusCode).toBe(403);

    const rejected = await reject(staff.finance, id);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await rateOf(day)).toMatchObject({
      apy: "3.25%",
      status: "rejected",
      decidedBy: { id: staff.finance.user.id },
      notice: null,
    });
    const [rate] = await t.database.query<{ bps: number }>("select savings_rate_on($1::date) as bps", [day]);
    expect(rate!.bps).toBe(250);
    // A rejected day may be proposed again.
    expect((await propose(staff.owner, 300, day)).statusCode).toBe(202);
  });

  it("refuses an approval once the rate's day has come: interest may have accrued at the old rate", async () => {
    const day = addDays(today(), 2);
    const id = (await propose(staff.owner, 400, day)).json().approval.id;
    const late = approveSavingsRate(() => new Date(Date.now() + 3 * 86_400_000));
    await expect(
      decideApproval(
        t.database.db,
        { savings_rate: late } as unknown as ApprovalActions,
        staff.finance.user.id,
        id,
        "approve",
        null,
      ),
    ).rejects.toMatchObject({ reason: "stale_approval" });
    expect(await rateOf(day)).toMatchObject({ status: "proposed" });
    expect((await reject(staff.finance, id)).statusCode).toBe(200);
  });
});

describe("an approved rate", () => {
  it("applies from its day on (each day's micros at that day's rate) and tells every saver once", async () => {
    const yesterday = addDays(today(), -1);
    const tomorrow = addDays(today(), 1);
    const after = addDays(today(), 2);
    // Saving from yesterday noon, New York (17:00 UTC is noon or 1 pm there).
    const at = new Date(`${yesterday}T17:00:00Z`);
    const savers = [await saver("10000.00", at), await saver("2500.55", at), await saver("80.00", at)];
    const nonSaver = await createApprovedCustomer(t.database);
    // The third turned e-mail off for "Deposits and credits": told in the app only.
    await t.database.query(
      "insert into notification_preferences (user_id, kind, in_app, email) values ($1, 'money_in', true, false)",
      [savers[2]!.customer.user.id],
    );

    const id = (await propose(staff.owner, 375, tomorrow)).json().approval.id;
    const approved = await approve(staff.finance2, id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().result).toMatchObject({ effectiveOn: tomorrow, previousApy: "2.50%" });
    expect(await rateOf(tomorrow)).toMatchObject({
      status: "approved",
      previousApy: "2.50%",
      decidedBy: { id: staff.finance2.user.id },
      approvalId: id,
      notice: "sending",
    });
    // Approved for tomorrow: today's rate is unchanged.
    const [todays] = await t.database.query<{ bps: number }>("select savings_rate_on($1::date) as bps", [
      today(),
    ]);
    expect(todays!.bps).toBe(250);
    // Savers see it coming on their savings page: today's rate, and the new one from its day.
    const shown = (await call(savers[0]!.customer, "GET", "/api/savings")).json();
    expect(shown.rate.apy).toBe("2.50%");
    expect(shown.nextRate).toEqual({ apy: "3.75%", apyBps: 375, effectiveOn: tomorrow });

    // Told after the approval's commit, in batches of two; a second run tells no one again.
    const told = await sendRateNotices(t.database.db, 2);
    expect(told).toBeGreaterThanOrEqual(3);
    expect(await sendRateNotices(t.database.db, 2)).toBe(0);
    expect(await rateOf(tomorrow)).toMatchObject({ notice: "done" });
    const when = new Intl.DateTimeFormat("en-US", {
      month: "long",
      day: "numeric",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date(`${tomorrow}T00:00:00Z`));
    for (const [n, who] of [...savers.map((s) => s.customer), nonSaver].entries()) {
      const [row] = await t.database.query<{ notices: number; mails: number; body: string | null }>(
        `select (select count(*)::int from notifications where user_id = $1 and title = 'Your savings rate is changing'
                   and body like '%3.75%') as notices,
                (select min(body) from notifications where user_id = $1 and body like '%3.75%') as body,
                (select count(*)::int from mail_outbox where to_address = $2 and kind = 'savings_rate_change'
                   and text_body like '%3.75%') as mails`,
        [who.user.id, who.email],
      );
      if (n < 3) {
        expect(row).toEqual({
          notices: 1,
          mails: n === 2 ? 0 : 1,
          body: `Your savings APY changes from 2.50% to 3.75% on ${when}.`,
        });
      } else expect(row).toEqual({ notices: 0, mails: 0, body: null });
    }

    // Accrue across the day: each day's interest at that day's rate, on that day's balance.
    await accrueInterestThrough(t.database.db, after);
    for (const { accountId } of savers) {
      const rows = await t.database.query<{
        month: string;
        micros: string;
        days: number;
        credited: string | null;
      }>(
        `select month::text as month, accrued_micros::text as micros, days, credited_cents::text as credited
           from savings_interest where account_id = $1 order by month`,
        [accountId],
      );
      const [open] = await t.database.query<{ cents: string }>(
        "select amount::text as cents from savings_moves where account_id = $1",
        [accountId],
      );
      let balance = Number(open!.cents);
      let expected = 0;
      const byMonth = new Map<string, number>();
      for (let day = yesterday; day <= after; day = addDays(day, 1)) {
        const month = `${day.slice(0, 7)}-01`;
        // A new month's first day holds the previous month's credit.
        if (day.endsWith("-01") && day !== yesterday) {
          const previous = `${addDays(day, -1).slice(0, 7)}-01`;
          balance += Number(rows.find((r) => r.month === previous)?.credited ?? 0);
        }
        const bps = day >= tomorrow ? 375 : 250;
        const [rate] = await t.database.query<{ micros: string }>(
          "select floor($1::bigint * 10000 * savings_daily_rate($2, $3::date))::text as micros",
          [balance, bps, day],
        );
        byMonth.set(month, (byMonth.get(month) ?? 0) + Number(rate!.micros));
        expected += Number(rate!.micros);
      }
      for (const row of rows) expect(Number(row.micros), row.month).toBe(byMonth.get(row.month) ?? 0);
      expect(rows.reduce((sum, r) => sum + Number(r.micros), 0)).toBe(expected);
    }

    // Finance's figures by day hold exactly what accrued and was paid.
    const finance = (await call(staff.finance, "GET", "/api/admin/savings/finance")).json();
    const [totals] = await t.database.query<{ micros: string; paid: string }>(
      `select coalesce(sum(accrued_micros), 0)::text as micros, coalesce(sum(credited_cents), 0)::text as paid
         from savings_interest`,
    );
    const sum = (periods: { accruedMicros: number; paid: { cents: number } }[], pick: "micros" | "paid") =>
      periods.reduce((s, p) => s + (pick === "micros" ? p.accruedMicros : p.paid.cents), 0);
    expect(sum(finance.days, "micros")).toBe(Number(totals!.micros));
    expect(sum(finance.months, "micros")).toBe(Number(totals!.micros));
    expect(sum(finance.days, "paid")).toBe(Number(totals!.paid));
    expect(finance.days[0].on).toBe(after);
  });
});

describe("finance's figures", () => {
  it("shows deposits by product equal to the ledger's balances, and next month's forecast by each day's rate", async () => {
    await saver("1234.56", new Date());
    const response = await call(staff.finance, "GET", "/api/admin/savings/finance");
    expect(response.statusCode, response.body).toBe(200);
    const finance = response.json();
    const [ledger] = await t.database.query<{
      checking: string;
      savings: string;
      wallets: number;
      open: number;
    }>(
      `select (select coalesce(sum(p.amount), 0) from postings p join ledger_accounts a on a.id = p.account_id
                 where a.kind = 'wallet')::text as checking,
              (select coalesce(sum(p.amount), 0) from postings p join ledger_accounts a on a.id = p.account_id
                 where a.kind = 'savings')::text as savings,
              (select count(*)::int from ledger_accounts where kind = 'wallet') as wallets,
              (select count(*)::int from savings_accounts where closed_at is null) as open`,
    );
    expect(finance.deposits.checking.total.cents).toBe(Number(ledger!.checking));
    expect(finance.deposits.savings.total.cents).toBe(Number(ledger!.savings));
    expect(finance.deposits.checking.accounts).toBe(ledger!.wallets);
    expect(finance.deposits.savings.accounts).toBe(ledger!.open);
    expect((await call(staff.owner, "GET", "/api/admin/savings/finance")).statusCode).toBe(200);
    expect((await call(staff.compliance, "GET", "/api/admin/savings/finance")).statusCode).toBe(403);

    // A rate approved mid next month: its first days at the rate then in force, the rest at the new one.
    const first: string = finance.forecast.month;
    const mid = addDays(first, 14);
    const id = (await propose(staff.owner, 425, mid)).json().approval.id;
    expect((await approve(staff.owner2, id)).statusCode).toBe(200);
    const after = (await call(staff.finance, "GET", "/api/admin/savings/finance")).json();
    const [y, m] = first.split("-").map(Number) as [number, number];
    const monthDays = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const yearDays = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 366 : 365;
    const daily = (bps: number) => ((1 + bps / 10_000) ** (monthDays / yearDays) - 1) / monthDays;
    const [inForce] = await t.database.query<{ bps: number }>("select savings_rate_on($1::date) as bps", [
      first,
    ]);
    const balance = after.forecast.balance.cents as number;
    expect(balance).toBe(Number(ledger!.savings));
    const hand = Math.floor(balance * (14 * daily(inForce!.bps) + (monthDays - 14) * daily(425)));
    expect(after.forecast).toMatchObject({
      month: first,
      days: monthDays,
      expense: { cents: hand },
      rates: [
        { from: first, apy: `${(inForce!.bps / 100).toFixed(2)}%` },
        { from: mid, apy: "4.25%" },
      ],
    });
  });
});
