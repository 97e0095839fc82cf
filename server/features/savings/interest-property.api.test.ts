import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { accrueInterestThrough } from "@/server/features/savings/interest";
import { moveSavings } from "@/server/features/savings/move-savings";
import { openSavings } from "@/server/features/savings/savings";
import { createApprovedCustomer, expectLedgerCleanAfterEach, fundCustomer } from "@/tests/support/money";
import { setUpTestApp } from "@/tests/support/test-app";
import { setUpAdminUser } from "@/tests/support/users";

// The accrual and the monthly credit (decision 068) against a model written from Regulation DD and the issue, not
// from the SQL: random balances, moves at random instants (New York midnights, DST changes and leap Februaries
// among them), rate changes mid-month. The model works in float64 day by day; the bank in PostgreSQL numeric set by
// set: a month's credit may differ by the cent a float rounds the other way, never more.
const t = setUpTestApp({ RATE_LIMIT_SCALE: "100" });
const admin = setUpAdminUser(t);
expectLedgerCleanAfterEach(t);
afterEach(async () => {
  await t.database.query("delete from savings_rates where effective_on > '2000-01-01'");
});

/** The New York calendar day of an instant, from the platform's time zone data. */
const NEW_YORK = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/New_York",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});
const nyDay = (at: Date) => NEW_YORK.format(at);
const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const daysInMonth = (day: string) => {
  const [y, m] = day.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
};
const daysInYear = (day: string) => {
  const y = Number(day.slice(0, 4));
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 366 : 365;
};
const isLastOfMonth = (day: string) => Number(day.slice(8)) === daysInMonth(day);

interface ModelMonth {
  month: string;
  micros: number;
  credited: number | null;
}

/**
 * The bank as the issue describes it: each New York day's closing balance earns the day's rate, chosen so that a
 * month of d days in a year of Y days compounds to (1 + APY)^(d/Y) (Appendix A: a year's interest on a constant
 * balance is the APY); accrued in micros, rounded down; credited on the month's last day, rounded down to the
 * cent, the rest carried.
 */
function model(
  openDay: string,
  endDay: string,
  moves: { day: string; cents: number }[],
  rates: { day: string; bps: number }[],
) {
  const months: ModelMonth[] = [];
  let balance = 0;
  let carry = 0;
  for (let day = openDay; day <= endDay; day = addDays(day, 1)) {
    for (const m of moves) if (m.day === day) balance += m.cents;
    const bps =
      [...rates]
        .filter((r) => r.day <= day)
        .sort((a, b) => a.day.localeCompare(b.day))
        .at(-1)?.bps ?? 250;
    const d = daysInMonth(day);
    const rate = ((1 + bps / 10_000) ** (d / daysInYear(day)) - 1) / d;
    const monthKey = `${day.slice(0, 7)}-01`;
    let current = months.at(-1);
    if (current?.month !== monthKey) {
      current = { month: monthKey, micros: 0, credited: null };
      months.push(current);
    }
    current.micros += Math.floor(balance * 10_000 * rate);
    if (isLastOfMonth(day)) {
      const total = current.micros + carry;
      current.credited = Math.floor(total / 10_000);
      carry = total - current.credited * 10_000;
      balance += current.credited;
    }
  }
  return { months, balance };
}

const START_DAYS = [
  "2024-02-10",
  "2024-10-25",
  "2026-02-20",
  "2026-03-01",
  "2026-10-20",
  "2028-02-15",
  "2028-12-01",
];

const scenario = fc.record({
  start: fc.constantFrom(...START_DAYS),
  span: fc.integer({ min: 32, max: 70 }),
  // Minutes after 00:00 UTC of the start day: 04:00–05:00 UTC holds New York's midnight either side of DST.
  openMinute: fc.integer({ min: 0, max: 1439 }),
  deposit: fc.integer({ min: 1, max: 500_000_000 }),
  moves: fc.array(
    fc.record({
      minute: fc.integer({ min: 0, max: 70 * 1440 }),
      toSavings: fc.boolean(),
      cents: fc.integer({ min: 1, max: 50_000_000 }),
    }),
    { maxLength: 5 },
  ),
  rates: fc.uniqueArray(
    fc.record({ offset: fc.integer({ min: 1, max: 69 }), bps: fc.integer({ min: 0, max: 800 }) }),
    {
      maxLength: 2,
      selector: (r) => r.offset,
    },
  ),
});

describe("interest against Regulation DD's arithmetic", () => {
  it("accrues and credits every month as the model does, to the cent, whatever the balances, dates and rates", async () => {
    // Moves dated years apart write their months' history rows: on PostgreSQL those partitions must exist.
    await t.database.query("select partitions_premake(30)");
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const customer = await createApprovedCustomer(t.database);
        await fundCustomer(t, admin, customer.user.id, "10000000.00");
        const openedAt = new Date(Date.parse(`${s.start}T00:00:00Z`) + s.openMinute * 60_000);
        const openDay = nyDay(openedAt);
        const endDay = addDays(openDay, s.span);
        const rates = s.rates.map((r) => ({ day: addDays(openDay, r.offset), bps: r.bps }));
        for (const r of rates)
          await t.database.query(
            "insert into savings_rates (apy_bps, effective_on, status) values ($1, $2::date, 'approved')",
            [r.bps, r.day],
          );
        const opened = await openSavings(t.database.db, customer.user.id, openedAt);
        const accountId = opened.account!.id;
        try {
          let key = 0;
          const moved: { day: string; cents: number }[] = [];
          const moveAt = async (at: Date, toSavings: boolean, cents: number) => {
            const result = await moveSavings(
              t.database.db,
              customer.user.id,
              { direction: toSavings ? "to_savings" : "to_checking", amount: (cents / 100).toFixed(2) },
              `p-${accountId}-${++key}`,
              at,
            );
            expect(result.statusCode).toBe(201);
            moved.push({ day: nyDay(at), cents: toSavings ? cents : -cents });
          };
          await moveAt(openedAt, true, s.deposit);
          // Within the span, in time order; a move out takes at most the principal there (interest only adds).
          let principal = s.deposit;
          const spanEnd = Date.parse(`${endDay}T04:00:00Z`);
          for (const m of [...s.moves].sort((a, b) => a.minute - b.minute)) {
            const at = new Date(openedAt.getTime() + m.minute * 60_000);
            if (at.getTime() >= spanEnd) continue;
            const cents = m.toSavings ? m.cents : Math.min(m.cents, principal);
            if (cents === 0) continue;
            await moveAt(at, m.toSavings, cents);
            principal += m.toSavings ? cents : -cents;
          }

          await accrueInterestThrough(t.database.db, endDay, { batchSize: 2 });
          const expected = model(openDay, endDay, moved, rates);
          // A month after endDay may hold only what the last credit carried below the cent: no day of it accrued.
          const rows = (await t.database.query(
            `select month::text as month, accrued_micros::text as micros, credited_cents::text as credited
             from savings_interest where account_id = $1 and days > 0 order by month`,
            [accountId],
          )) as { month: string; micros: string; credited: string | null }[];
          expect(rows.map((r) => r.month)).toEqual(expected.months.map((m) => m.month));
          for (const [i, row] of rows.entries()) {
            const want = expected.months[i]!;
            expect(row.credited === null, row.month).toBe(want.credited === null);
            if (want.credited !== null)
              expect(Math.abs(Number(row.credited) - want.credited), row.month).toBeLessThanOrEqual(1);
            // Within a micro a day and a cent's interest per earlier month (a cent credited differently earns on).
            expect(Math.abs(Number(row.micros) - want.micros), row.month).toBeLessThanOrEqual(31 + 30 * i);
          }
          const [balance] = (await t.database.query(
            "select balance::text as balance from ledger_accounts where id = $1",
            [accountId],
          )) as { balance: string }[];
          expect(Math.abs(Number(balance!.balance) - expected.balance)).toBeLessThanOrEqual(
            expected.months.length,
          );
        } finally {
          // Later scenarios (and fast-check's shrinking) start elsewhere in time: this account stops accruing and
          // its rates go, whether it passed or not.
          await t.database.query("update savings_accounts set closed_at = now() where account_id = $1", [
            accountId,
          ]);
          await t.database.query("delete from savings_rates where effective_on > '2000-01-01'");
        }
      }),
      { numRuns: 12 },
    );
  });
});
