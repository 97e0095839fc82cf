import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { CLOSURE_MESSAGES } from "@/contract/closure";
import { formatMoney, MAX_CENTS, parseMoney } from "@/contract/money";
import {
  type CreateSavingsGoalInput,
  formatApy,
  SAVINGS_MESSAGES,
  type SavingsGoal,
  type SavingsOverview,
} from "@/contract/savings";
import { SECURITY_MESSAGES } from "@/contract/security";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { type Db, type DbOrTx, queryRows } from "@/server/db/client";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { AppError, pgConstraint, pgErrorCode } from "@/server/lib/errors";

/**
 * A customer's savings account (decision 068): opened from the dashboard once the checking account is
 * open, one per customer, its own ledger account; its balance, the rate on offer and the interest earned.
 */

const figure = (cents: number) => ({ amount: formatMoney(cents), cents });

/** Who may hold savings: a customer whose checking account is open and who is neither frozen, closed nor staff. */
async function refuseWhoCannotSave(db: DbOrTx, userId: string): Promise<void> {
  const [row] = await queryRows(
    db,
    sql`select frozen_at is not null as frozen, closed_at is not null as closed,
          cardinality(staff_roles) > 0 as staff, can_send_money(id) as open
        from users where id = ${userId}`,
    z.object({ frozen: z.boolean(), closed: z.boolean(), staff: z.boolean(), open: z.boolean() }),
  );
  if (row?.staff) throw new AppError("staff_account", TRANSFER_MESSAGES.adminCannotTransfer);
  if (row?.frozen) throw new AppError("account_frozen", SECURITY_MESSAGES.accountFrozen);
  if (row?.closed) throw new AppError("account_closed", CLOSURE_MESSAGES.accountClosed);
  if (!row?.open) throw new AppError("setup_incomplete", TRANSFER_MESSAGES.setupIncomplete);
}

/**
 * POST /api/savings: opens the customer's savings account (its first day of interest is today, New York). A second
 * open one is refused by the unique index, so two requests at once open one.
 */
export async function openSavings(db: Db, userId: string, now = new Date()): Promise<SavingsOverview> {
  await db.transaction(async (tx) => {
    await refuseWhoCannotSave(tx, userId);
    const accountId = randomUUID();
    try {
      await tx.execute(sql`
        with account as (
          insert into ledger_accounts (id, code, kind) values (${accountId}, ${`savings:${accountId}`}, 'savings')
          returning id)
        insert into savings_accounts (account_id, user_id, opened_at, opened_on)
        select id, ${userId}, ${now.toISOString()}, ${limitDayOf(now)}::date from account`);
    } catch (err) {
      if (pgErrorCode(err) === "23505" && pgConstraint(err) === "savings_accounts_open_user_idx")
        throw new AppError("savings_already_open", SAVINGS_MESSAGES.alreadyOpen);
      throw err;
    }
  });
  return getSavingsOverview(db, userId, now);
}

const overviewRow = z.object({
  apy_bps: z.number().int(),
  since: z.string(),
  next_apy_bps: z.number().int().nullable(),
  next_on: z.string().nullable(),
  account_id: z.string().nullable(),
  opened_at: z.string().nullable(),
  balance: z.string().nullable(),
  accrued_through: z.string().nullable(),
  month_micros: z.string().nullable(),
  year_cents: z.string().nullable(),
  all_cents: z.string().nullable(),
});

/** GET /api/savings: the rate on offer today and the customer's open savings account, if any. */
export async function getSavingsOverview(
  db: DbOrTx,
  userId: string,
  now = new Date(),
): Promise<SavingsOverview> {
  const today = limitDayOf(now);
  const [row] = await queryRows(
    db,
    sql`
      with rate as (
        select r.apy_bps, r.effective_on::text as since from savings_rates r
        where r.status = 'approved' and r.effective_on <= ${today}::date order by r.effective_on desc limit 1),
      next_rate as (
        select r.apy_bps, r.effective_on::text as effective_on from savings_rates r
        where r.status = 'approved' and r.effective_on > ${today}::date order by r.effective_on limit 1),
      account as (
        select s.account_id, s.opened_at, s.accrued_through, a.balance from savings_accounts s
        join ledger_accounts a on a.id = s.account_id
        where s.user_id = ${userId} and s.closed_at is null)
      select rate.apy_bps, rate.since, next_rate.apy_bps as next_apy_bps, next_rate.effective_on as next_on,
        account.account_id::text as account_id,
        to_char(account.opened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as opened_at,
        account.balance::text as balance, account.accrued_through::text as accrued_through,
        (select (i.accrued_micros + i.carry_in_micros)::text from savings_interest i
          where i.account_id = account.account_id and i.credited_cents is null
          order by i.month desc limit 1) as month_micros,
        (select coalesce(sum(i.credited_cents), 0)::text from savings_interest i
          where i.account_id = account.account_id and i.month >= date_trunc('year', ${today}::date)) as year_cents,
        (select coalesce(sum(i.credited_cents), 0)::text from savings_interest i
          where i.account_id = account.account_id) as all_cents
      from rate left join next_rate on true left join account on true`,
    overviewRow,
  );
  if (!row) throw new Error("No approved savings rate: run the migrations");
  const rate = { apy: formatApy(row.apy_bps), apyBps: row.apy_bps, since: row.since };
  const nextRate =
    row.next_apy_bps === null || row.next_on === null
      ? null
      : { apy: formatApy(row.next_apy_bps), apyBps: row.next_apy_bps, effectiveOn: row.next_on };
  if (!row.account_id) return { rate, nextRate, account: null };
  // Interest accrued and not yet paid, to the cent, rounded down: what the month's credit pays at the least.
  const accrued = Math.floor(Number(row.month_micros ?? 0) / 10_000);
  return {
    rate,
    nextRate,
    account: {
      id: row.account_id,
      openedAt: row.opened_at!,
      balance: figure(Number(row.balance)),
      accruedThisMonth: figure(accrued),
      earnedThisYear: figure(Number(row.year_cents) + accrued),
      earnedAllTime: figure(Number(row.all_cents) + accrued),
      accruedThrough: row.accrued_through,
      goals: await findGoals(db, userId),
    },
  };
}

const goalRow = z.object({
  id: z.string(),
  name: z.string(),
  target_cents: z.string(),
  target_date: z.string().nullable(),
  saved_cents: z.string(),
});

/** The customer's goals, oldest first, each with what its moves have saved toward it (never below zero). */
async function findGoals(db: DbOrTx, userId: string): Promise<SavingsGoal[]> {
  const rows = await queryRows(
    db,
    sql`select g.id::text as id, g.name, g.target_cents::text as target_cents, g.target_date::text as target_date,
          greatest(coalesce((select sum(case when m.direction = 'to_savings' then m.amount else -m.amount end)
            from savings_moves m where m.goal_id = g.id), 0), 0)::text as saved_cents
        from savings_goals g where g.user_id = ${userId} and g.archived_at is null
        order by g.created_at, g.id limit 20`,
    goalRow,
  );
  return rows.map((g) => ({
    id: g.id,
    name: g.name,
    target: formatMoney(Number(g.target_cents)),
    targetCents: Number(g.target_cents),
    targetDate: g.target_date,
    saved: formatMoney(Number(g.saved_cents)),
    savedCents: Number(g.saved_cents),
  }));
}

/** At most this many open goals per customer. */
export const GOAL_LIMIT = 20;

/** POST /api/savings/goals: a goal on the customer's open savings account. */
export async function createGoal(
  db: Db,
  userId: string,
  input: CreateSavingsGoalInput,
): Promise<SavingsOverview> {
  const target = parseMoney(input.target);
  if (target === null) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountInvalid);
  if (target <= 0) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountPositive);
  if (target > MAX_CENTS) throw new AppError("VALIDATION", "A goal can be at most $10,000,000,000.00");
  await db.transaction(async (tx) => {
    await refuseWhoCannotSave(tx, userId);
    // The customer's savings row, locked: two goals made at once count each other.
    const [open] = await queryRows(
      tx,
      sql`select (select count(*) from savings_goals g where g.user_id = ${userId} and g.archived_at is null)::int as goals
          from savings_accounts s where s.user_id = ${userId} and s.closed_at is null for update`,
      z.object({ goals: z.number().int() }),
    );
    if (!open) throw new AppError("savings_not_open", SAVINGS_MESSAGES.notOpen);
    if (open.goals >= GOAL_LIMIT) throw new AppError("CONFLICT", `You can have at most ${GOAL_LIMIT} goals`);
    await tx.execute(sql`
      insert into savings_goals (user_id, name, target_cents, target_date)
      values (${userId}, ${input.name}, ${target}, ${input.targetDate ?? null}::date)`);
  });
  return getSavingsOverview(db, userId);
}
