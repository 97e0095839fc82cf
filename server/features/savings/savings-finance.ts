import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import type { InterestPeriod, SavingsFinance } from "@/contract/savings-admin";
import { formatApy } from "@/contract/savings-text";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { limitDayOf } from "@/server/features/transfers/limit-day";

/**
 * The back office's savings figures (decision 071), each a few set-based reads whatever the number of
 * accounts: deposits by product from the ledger's cached balances, interest by day and month from
 * savings_interest_days (a few hundred rows a day), and next month's interest expense forecast.
 */

const figure = (cents: number) => ({ amount: formatMoney(cents), cents });

const periodRow = z.object({
  on: z.string(),
  accrued_micros: z.string(),
  account_days: z.string(),
  paid_cents: z.string(),
  accounts_paid: z.string(),
});

const toPeriod = (r: z.infer<typeof periodRow>): InterestPeriod => ({
  on: r.on,
  accruedMicros: Number(r.accrued_micros),
  // Below the cent until credited: shown rounded down, as the customer's "accrued this month" is.
  accrued: formatMoney(Math.floor(Number(r.accrued_micros) / 10_000)),
  accountDays: Number(r.account_days),
  paid: figure(Number(r.paid_cents)),
  accountsPaid: Number(r.accounts_paid),
});

/** The first day of the month after `day` (YYYY-MM-DD). */
function nextMonthOf(day: string): string {
  const [y, m] = day.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
}

/** GET /api/admin/savings/finance (finance, owners). */
export async function getSavingsFinance(db: DbOrTx, now = new Date()): Promise<SavingsFinance> {
  const today = limitDayOf(now);
  const next = nextMonthOf(today);
  // One pass over the cached balances of the two products (wallets and savings accounts; the ledger check keeps
  // them equal to their postings), and the open savings accounts by their partial index.
  const deposits = await queryRows(
    db,
    sql`select a.kind, coalesce(sum(a.balance), 0)::text as total, count(*)::int as accounts
        from ledger_accounts a where a.kind in ('wallet', 'savings') group by a.kind`,
    z.object({ kind: z.string(), total: z.string(), accounts: z.number().int() }),
  );
  const [open] = await queryRows(
    db,
    sql`select count(*)::int as n from savings_accounts where closed_at is null`,
    z.object({ n: z.number().int() }),
  );
  const sums = sql`coalesce(sum(accrued_micros), 0)::text as accrued_micros,
    coalesce(sum(account_days), 0)::text as account_days, coalesce(sum(paid_cents), 0)::text as paid_cents,
    coalesce(sum(accounts_paid), 0)::text as accounts_paid`;
  const days = await queryRows(
    db,
    sql`select day::text as on, ${sums} from savings_interest_days
        where day > ${today}::date - 31 group by day order by day desc`,
    periodRow,
  );
  const months = await queryRows(
    db,
    sql`select date_trunc('month', day)::date::text as on, ${sums} from savings_interest_days
        where day >= date_trunc('month', ${today}::date) - interval '11 months' group by 1 order by 1 desc`,
    periodRow,
  );
  const savings = deposits.find((d) => d.kind === "savings");
  const checking = deposits.find((d) => d.kind === "wallet");
  const balance = Number(savings?.total ?? 0);
  // Every savings balance held all next month, each day at its approved rate (savings_daily_rate of the rate in
  // force), rounded down to the cent: the month's interest expense if nothing moves.
  const [forecast] = await queryRows(
    db,
    sql`select count(*)::int as days,
          floor(${balance}::numeric * coalesce(sum(savings_daily_rate(savings_rate_on(d.day), d.day)), 0))::text as cents
        from (select g::date as day from generate_series(${next}::date,
          (${next}::date + interval '1 month - 1 day')::date, interval '1 day') g) d`,
    z.object({ days: z.number().int(), cents: z.string() }),
  );
  const rates = await queryRows(
    db,
    sql`select greatest(r.effective_on, ${next}::date)::text as from, r.apy_bps from savings_rates r
        where r.status = 'approved' and r.effective_on < ${next}::date + interval '1 month'
          and r.effective_on >= (select max(effective_on) from savings_rates
            where status = 'approved' and effective_on <= ${next}::date)
        order by r.effective_on`,
    z.object({ from: z.string(), apy_bps: z.number().int() }),
  );
  return {
    today,
    deposits: {
      checking: { total: figure(Number(checking?.total ?? 0)), accounts: checking?.accounts ?? 0 },
      savings: { total: figure(balance), accounts: open?.n ?? 0 },
    },
    days: days.map(toPeriod),
    months: months.map(toPeriod),
    forecast: {
      month: next,
      days: forecast?.days ?? 0,
      balance: figure(balance),
      expense: figure(Number(forecast?.cents ?? 0)),
      rates: rates.map((r) => ({ from: r.from, apy: formatApy(r.apy_bps) })),
    },
  };
}
