import { createHash } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type SavingsStatementItem, STATEMENT_MESSAGES } from "@/contract/statements";
import type { Db, DbOrTx } from "@/server/db/client";
import { queryRows } from "@/server/db/client";
import { findOwner, formatDigest, STATEMENT_BATCH } from "@/server/features/statements/statement-data";
import {
  monthOf,
  parseStatementMonth,
  type StatementPeriod,
} from "@/server/features/statements/statement-month";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { AppError } from "@/server/lib/errors";

/**
 * The monthly savings statement (decision 069): a savings account's opening and closing balance, every
 * movement, the interest earned, Regulation DD's "Annual Percentage Yield Earned" and the days in the period. A
 * month's statement exists once its interest is final: the month's credit is made (savings_interest.credited_at),
 * or the account closed in it (the closing paid what the month had accrued).
 */

export interface SavingsStatementOwner {
  userId: string;
  accountId: string;
  name: string;
  address: string | null;
  /** The New York day the account opened on, and the one it closed on (null while open). */
  openedOn: string;
  closedOn: string | null;
}

export interface SavingsStatementSummary {
  opening: number;
  /** Money moved in from checking. */
  deposits: number;
  /** Money moved out to checking (the closing's move included), negative. */
  withdrawals: number;
  /** The interest credited in the period: the month's credit (or what the closing paid). */
  interest: number;
  closing: number;
  count: number;
  /** The days of the period the account was open: the month, from the day it opened, to the day it closed. */
  days: number;
  /** Σ of those days' closing balances, cents × days: the average daily balance is balanceDays / days. */
  balanceDays: number;
  /** Annual Percentage Yield Earned, percent to two decimals ("2.50"). */
  apyEarned: string;
}

export interface SavingsStatementLine {
  postingId: number;
  at: Date;
  description: string;
  reference: string;
  amount: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Regulation DD's Annual Percentage Yield Earned (12 CFR 1030, Appendix A, Part II.A), in PostgreSQL numeric:
 * `100 × ((1 + Interest earned / Balance)^(365 / Days in period) − 1)`, Balance the average daily balance (the sum
 * of each day's balance over the days in the period: Supplement I, Appendix A, Part II, comment 1), so
 * Interest / Balance = interest × days / balance-days exactly. 365 always: Appendix A's APY is "expressed as an
 * annualized rate, based on a 365-day year", a 366-day year in a leap year being allowed, not required; one
 * figure for every year keeps a whole leap year at 2.50 % no less than another. Rounded to the nearest .01 % and
 * written with two decimals (§1030.3(f)(1)). No balance or no day in the period: 0.00.
 */
export function apyEarnedSql(interest: SQL, balanceDays: SQL, days: SQL): SQL {
  return sql`(case when ${days} > 0 and ${balanceDays} > 0
      then round(100 * (power(1 + ${interest}::numeric * ${days} / ${balanceDays}, 365::numeric / ${days}) - 1), 2)
      else 0 end)::numeric(9, 2)::text`;
}

/** The APY earned of a period's figures (apyEarnedSql), e.g. "2.50". */
export async function computeApyEarned(
  db: DbOrTx,
  figures: { interest: number; balanceDays: number; days: number },
): Promise<string> {
  const [row] = await queryRows(
    db,
    sql`select ${apyEarnedSql(
      sql`${figures.interest}::bigint`,
      sql`${figures.balanceDays}::bigint`,
      sql`${figures.days}::int`,
    )} as apy`,
    z.object({ apy: z.string() }),
  );
  return row!.apy;
}

/** A month is ready once its interest is credited, or the account closed in it (or before its end). */
const READY = (
  monthFirst: SQL,
) => sql`(exists (select 1 from savings_interest i where i.account_id = s.account_id
    and i.month = ${monthFirst} and i.credited_at is not null)
  or (s.closed_at is not null and s.closed_at < new_york_start((${monthFirst} + interval '1 month')::date)))`;

/** GET /api/statements' savings part: every month of every savings account of the customer that is ready. */
export async function findSavingsStatements(
  db: DbOrTx,
  userId: string,
  now = new Date(),
): Promise<SavingsStatementItem[]> {
  return queryRows(
    db,
    sql`select s.account_id::text as "accountId", to_char(m.first, 'YYYY-MM') as month
        from savings_accounts s
        cross join lateral (select g::date as first from generate_series(date_trunc('month', s.opened_on),
          date_trunc('month', coalesce((s.closed_at at time zone 'America/New_York')::date, ${limitDayOf(now)}::date)),
          interval '1 month') g) m
        where s.user_id = ${userId} and ${READY(sql`m.first`)}
        order by m.first desc, s.opened_at desc`,
    z.object({ accountId: z.string(), month: z.string() }),
  );
}

const accountRow = z.object({
  account_id: z.string(),
  opened_on: z.string(),
  closed_on: z.string().nullable(),
  ready: z.boolean(),
});

/**
 * The owner and period of one savings statement: a malformed month is a 400; an account not the customer's (or no
 * account at all) a 404 that says no more; a month the account was not open in a 404; a month whose interest is not
 * paid yet a 409.
 */
export async function openSavingsStatement(
  db: Db,
  userId: string,
  accountId: string,
  month: string,
  now = new Date(),
): Promise<{ owner: SavingsStatementOwner; period: StatementPeriod }> {
  const period = parseStatementMonth(month);
  if (!UUID.test(accountId)) throw new AppError("NOT_FOUND", STATEMENT_MESSAGES.noSavingsAccount);
  const first = `${month}-01`;
  const [account] = await queryRows(
    db,
    sql`select s.account_id::text as account_id, s.opened_on::text as opened_on,
          (s.closed_at at time zone 'America/New_York')::date::text as closed_on,
          ${READY(sql`${first}::date`)} as ready
        from savings_accounts s where s.account_id = ${accountId}::uuid and s.user_id = ${userId}`,
    accountRow,
  );
  const owner = account && (await findOwner(db, userId));
  if (!account || !owner) throw new AppError("NOT_FOUND", STATEMENT_MESSAGES.noSavingsAccount);
  const lastMonth = account.closed_on ? account.closed_on.slice(0, 7) : monthOf(now);
  if (month < account.opened_on.slice(0, 7) || month > lastMonth)
    throw new AppError("NOT_FOUND", STATEMENT_MESSAGES.noSavingsMonth);
  if (!account.ready) throw new AppError("CONFLICT", STATEMENT_MESSAGES.savingsNotReady);
  return {
    owner: {
      userId,
      accountId: account.account_id,
      name: owner.name,
      address: owner.address,
      openedOn: account.opened_on,
      closedOn: account.closed_on,
    },
    period,
  };
}

const figuresRow = z.object({
  account_id: z.string(),
  user_id: z.string(),
  ready: z.boolean(),
  opening: z.coerce.number(),
  deposits: z.coerce.number(),
  withdrawals: z.coerce.number(),
  interest: z.coerce.number(),
  count: z.coerce.number(),
  days: z.coerce.number(),
  balance_days: z.coerce.number(),
  apy_earned: z.string(),
});
export type SavingsFigures = z.infer<typeof figuresRow>;

/**
 * The figures of `month` for the savings accounts `batch` selects (columns account_id, user_id, opened_on,
 * closed_at, from savings_accounts s), set-based: the statement route asks for one account, the month-end run for a
 * batch, and both read the same numbers. The opening sums the account's postings before the month (a savings
 * account has a few a month: its moves and one interest credit). The period's days run from the month's first day,
 * or the day the account opened, to its last, or the day it closed (whose closing balance is zero: it adds a day
 * and no balance, Appendix A's "sum of the balances for each day in the period").
 */
export async function computeSavingsFigures(
  db: DbOrTx,
  period: StatementPeriod,
  batch: SQL,
): Promise<SavingsFigures[]> {
  const start = period.start.toISOString();
  const end = period.end.toISOString();
  const first = `${period.month}-01`;
  return queryRows(
    db,
    sql`
      with batch as (${batch}),
      figures as (
        select s.account_id, s.user_id, ${READY(sql`${first}::date`)} as ready,
          (least((${first}::date + interval '1 month - 1 day')::date,
              coalesce((s.closed_at at time zone 'America/New_York')::date, (${first}::date + interval '1 month - 1 day')::date))
            - greatest(${first}::date, s.opened_on) + 1) as days,
          (select coalesce(sum(p.amount), 0) from postings p where p.account_id = s.account_id and p.created_at < ${start})
            as opening,
          m.deposits, m.withdrawals, m.interest, m.count,
          coalesce((select i.balance_days from savings_interest i where i.account_id = s.account_id
            and i.month = ${first}::date), 0) as balance_days
        from batch s
        cross join lateral (
          select coalesce(sum(p.amount) filter (where e.kind <> 'interest_paid' and p.amount > 0), 0) as deposits,
            coalesce(sum(p.amount) filter (where e.kind <> 'interest_paid' and p.amount < 0), 0) as withdrawals,
            coalesce(sum(p.amount) filter (where e.kind = 'interest_paid'), 0) as interest,
            count(p.id) as count
          from postings p join journal_entries e on e.id = p.entry_id
          where p.account_id = s.account_id and p.created_at >= ${start} and p.created_at < ${end}) m)
      select f.account_id::text as account_id, f.user_id::text as user_id, f.ready,
        f.opening::text as opening, f.deposits::text as deposits, f.withdrawals::text as withdrawals,
        f.interest::text as interest, f.count::text as count, f.days::text as days,
        f.balance_days::text as balance_days,
        ${apyEarnedSql(sql`f.interest`, sql`f.balance_days`, sql`f.days`)} as apy_earned
      from figures f order by f.account_id`,
    figuresRow,
  );
}

export function toSavingsSummary(f: SavingsFigures): SavingsStatementSummary {
  return {
    opening: f.opening,
    deposits: f.deposits,
    withdrawals: f.withdrawals,
    interest: f.interest,
    closing: f.opening + f.deposits + f.withdrawals + f.interest,
    count: f.count,
    days: f.days,
    balanceDays: f.balance_days,
    apyEarned: f.apy_earned,
  };
}

/** One savings account's figures for the month, read live from the ledger and the month's interest row. */
export async function getSavingsStatementSummary(
  db: DbOrTx,
  owner: Pick<SavingsStatementOwner, "accountId">,
  period: StatementPeriod,
): Promise<SavingsStatementSummary> {
  const [figures] = await computeSavingsFigures(
    db,
    period,
    sql`select s.account_id, s.user_id, s.opened_on, s.closed_at from savings_accounts s
        where s.account_id = ${owner.accountId}::uuid`,
  );
  if (!figures) throw new AppError("NOT_FOUND", STATEMENT_MESSAGES.noSavingsAccount);
  return toSavingsSummary(figures);
}

const lineRow = z.object({
  id: z.coerce.number(),
  at: z.coerce.date(),
  amount: z.coerce.number(),
  entry_id: z.string(),
  kind: z.string(),
  description: z.string(),
  reference_type: z.string().nullable(),
  reference_id: z.string().nullable(),
  direction: z.string().nullable(),
  goal: z.string().nullable(),
});

/** What the customer reads for a movement of their savings: which way it went, and the goal it named. */
function describe(row: z.infer<typeof lineRow>): string {
  const goal = row.goal ? `: ${row.goal}` : "";
  if (row.direction === "to_savings") return `From Checking${goal}`;
  if (row.direction === "to_checking") return `To Checking${goal}`;
  if (row.direction === "closing") return "To Checking (account closed)";
  return row.description;
}

/** The month's postings on the savings account in ledger order, in keyset batches (the digest's order too). */
export async function* iterateSavingsStatementLines(
  db: DbOrTx,
  owner: Pick<SavingsStatementOwner, "accountId">,
  period: StatementPeriod,
): AsyncGenerator<SavingsStatementLine[]> {
  let after = 0;
  for (;;) {
    const rows = await queryRows(
      db,
      sql`select p.id::text as id, p.created_at as at, p.amount::text as amount, e.id::text as entry_id, e.kind,
            e.description, e.reference_type, e.reference_id,
            case when e.reference_type = 'savings_move' then (select m.direction from savings_moves m
              where m.id = e.reference_id::uuid) end as direction,
            case when e.reference_type = 'savings_move' then (select g.name from savings_moves m
              join savings_goals g on g.id = m.goal_id where m.id = e.reference_id::uuid) end as goal
          from postings p join journal_entries e on e.id = p.entry_id
          where p.account_id = ${owner.accountId}::uuid and p.created_at >= ${period.start.toISOString()}
            and p.created_at < ${period.end.toISOString()} and p.id > ${after}
          order by p.id limit ${STATEMENT_BATCH}`,
      lineRow,
    );
    if (rows.length === 0) return;
    yield rows.map((row) => ({
      postingId: row.id,
      at: row.at,
      amount: row.amount,
      description: describe(row),
      // A move's reference is the move (as checking's history shows it); an interest credit's, its entry.
      reference: row.reference_type === "savings_move" && row.reference_id ? row.reference_id : row.entry_id,
    }));
    after = rows.at(-1)!.id;
    if (rows.length < STATEMENT_BATCH) return;
  }
}

/** What a savings statement's digest covers; its own recipe name, so it never matches a checking statement's. */
export function savingsDigestHeader(accountId: string, period: StatementPeriod, opening: number): string {
  return `pillar-savings-statement-v1\n${accountId}\n${period.month}\n${opening}\n`;
}

/** A running SHA-256 over the month's savings postings (id:amount per line), as checking's digest is made. */
export function createSavingsStatementDigest(accountId: string, period: StatementPeriod, opening: number) {
  const hash = createHash("sha256").update(savingsDigestHeader(accountId, period, opening));
  return {
    add(lines: Pick<SavingsStatementLine, "postingId" | "amount">[]) {
      for (const line of lines) hash.update(`${line.postingId}:${line.amount}\n`);
    },
    finish: () => formatDigest(hash.digest("hex")),
  };
}
