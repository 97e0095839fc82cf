import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import { type Db, type DbOrTx, queryRows } from "@/server/db/client";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import type { LoopSpec } from "@/server/jobs/loop";
import { interestPaidMail } from "@/server/lib/mail/money-templates";
import type { Notification } from "@/server/lib/notifications";

/**
 * The daily accrual and the month's credit of savings interest (decision 068), as jobs that run
 * exactly once per account and day (and month) across instances and restarts: the SQL functions in
 * server/db/functions/savings.sql claim accounts with SKIP LOCKED and move each account's day, or mark its month
 * credited, in the statement that accrues or credits it. A pass does one batch of the oldest work due: a month
 * fully accrued is credited before any account accrues the next month's first day (the credit is part of that
 * day's balance), then the oldest day not yet accrued, up to `through`. After downtime the missed days are
 * accrued in order, each with its own rate and closing balance.
 */

/** Accounts per batch: one statement accrues or credits them, in its own short transaction. */
export const INTEREST_BATCH = 5000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * How long after a New York day ends before it accrues: a transaction that began before midnight (its postings
 * dated then) and commits after it must be in that day's closing balance, which the next day's builds on.
 */
export const ACCRUAL_GRACE_MS = 60 * 60_000;

/** The last New York day whose closing balance is final at `now`: the day before the one an hour ago fell on. */
export function lastClosedDay(now = new Date()): string {
  const day = new Date(`${limitDayOf(new Date(now.getTime() - ACCRUAL_GRACE_MS))}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

export interface InterestPass {
  /** What the batch did: a month's credit, or an accrual, or nothing left through `through`. */
  kind: "credit" | "accrual" | "idle";
  /** The month ("2026-11-01") credited, or the oldest day the accrual started from. */
  on: string | null;
  /** Accounts credited or accrued. */
  done: number;
  /** Days accrued, summed over the accounts (an account catching up accrues up to its month's end at once). */
  accountDays: number;
}

const dueRow = z.object({ month: z.string().nullable(), day: z.string().nullable() });

const MONTH_NAME = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** What a batch's event says of each customer paid a cent or more (interest_credited, written by interestPass). */
export const interestCredited = z.object({
  month: z.string().regex(DAY),
  paid: z.array(z.object({ user_id: z.guid(), cents: z.number().int().positive() })),
});
export type InterestCredited = z.infer<typeof interestCredited>;

/**
 * The notices of one batch's credit: each customer paid a cent or more told in the notification centre and by
 * e-mail as their "Deposits and credits" choices say (the jobs room's savings-interest consumer writes them).
 */
export async function interestPaidNotifications(
  tx: DbOrTx,
  credit: InterestCredited,
): Promise<Notification[]> {
  if (credit.paid.length === 0) return [];
  const people = new Map(
    (
      await queryRows(
        tx,
        sql`select u.id::text as user_id, u.email, u.first_name from users u
            where u.id = any(${`{${credit.paid.map((c) => c.user_id).join(",")}}`}::uuid[])`,
        z.object({ user_id: z.string(), email: z.string(), first_name: z.string() }),
      )
    ).map((r) => [r.user_id, r]),
  );
  const monthName = MONTH_NAME.format(new Date(`${credit.month}T00:00:00Z`));
  return credit.paid.flatMap((c) => {
    // A customer erased since (account deletion) has no one left to tell.
    const person = people.get(c.user_id);
    if (!person) return [];
    return [
      {
        userId: c.user_id,
        kind: "money_in" as const,
        content: {
          title: "Interest paid",
          body: `${formatMoney(c.cents)} of interest for ${monthName} was paid into your savings.`,
          link: "/savings",
        },
        mail: interestPaidMail(person.email, {
          firstName: person.first_name,
          amount: formatMoney(c.cents),
          month: monthName,
        }),
      },
    ];
  });
}

/**
 * One batch of the oldest interest work due through `through` (a New York day that has ended). Answers what it
 * did; `idle` when every open account has accrued through `through` and every complete month is credited.
 */
export async function interestPass(
  db: Db,
  through: string,
  batchSize = INTEREST_BATCH,
): Promise<InterestPass> {
  if (!DAY.test(through)) throw new Error(`through must be a day, YYYY-MM-DD: ${through}`);
  // The oldest month before the one after `through` with a row not credited (ready, or its account still accruing
  // behind: the credit function takes only the ready ones), and the oldest day an open account has not accrued;
  // each the first entry of a partial index (savings_interest_uncredited_idx, savings_accounts_next_day_idx).
  const [due] = await queryRows(
    db,
    sql`select
          (select min(i.month)::text from savings_interest i
            where i.credited_cents is null and i.month < date_trunc('month', ${through}::date + 1)) as month,
          (select min(coalesce(s.accrued_through + 1, s.opened_on))::text from savings_accounts s
            where s.closed_at is null) as day`,
    dueRow,
  );
  if (due?.month) {
    const month = due.month;
    const credited = await db.transaction(async (tx) => {
      const rows = await queryRows(
        tx,
        sql`select user_id::text as user_id, cents::int as cents from credit_savings_batch(${month}::date, ${batchSize})`,
        z.object({ user_id: z.string(), cents: z.number().int() }),
      );
      // Told after the commit, by the jobs room (decision 072: the money path writes once, everything else
      // follows from its event): one event for the batch, so a rolled-back credit tells no one and a committed
      // one tells each customer once.
      const paid = rows.filter((r) => r.cents > 0);
      if (paid.length > 0) {
        const event: InterestCredited = { month, paid };
        await tx.execute(
          sql`select emit_event('savings.interest_credited', null, ${JSON.stringify(event)}::jsonb)`,
        );
      }
      return rows.length;
    });
    if (credited > 0) return { kind: "credit", on: month, done: credited, accountDays: 0 };
  }
  if (due?.day && due.day <= through) {
    const [row] = await queryRows(
      db,
      sql`select accounts, account_days from accrue_savings(${through}::date, ${batchSize})`,
      z.object({ accounts: z.number().int(), account_days: z.number().int() }),
    );
    // None claimed: another instance holds these accounts, or they wait for a credit it is making.
    return { kind: "accrual", on: due.day, done: row?.accounts ?? 0, accountDays: row?.account_days ?? 0 };
  }
  return { kind: "idle", on: null, done: 0, accountDays: 0 };
}

export interface InterestRunReport {
  accountDays: number;
  monthsCredited: number;
  accountsCredited: number;
}

/**
 * Every pass due through `through`, here, to the end (the CLI's `interest:accrue --through`, tests, the bench).
 * Idempotent: run twice, the second run does nothing. A pass that finds its work claimed by another instance
 * waits a moment rather than spin.
 */
export async function accrueInterestThrough(
  db: Db,
  through: string,
  options: { batchSize?: number; onPass?: (pass: InterestPass) => void } = {},
): Promise<InterestRunReport> {
  const report: InterestRunReport = { accountDays: 0, monthsCredited: 0, accountsCredited: 0 };
  const months = new Set<string>();
  for (;;) {
    const pass = await interestPass(db, through, options.batchSize);
    if (pass.kind === "idle") break;
    options.onPass?.(pass);
    report.accountDays += pass.accountDays;
    if (pass.kind === "credit") {
      report.accountsCredited += pass.done;
      months.add(pass.on!);
    }
    if (pass.done === 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  report.monthsCredited = months.size;
  return report;
}

/**
 * The accrual and the credit in the jobs room (loops.ts): a batch a pass, at once while there is more, else every
 * 15 minutes; each instance may run it, the SQL makes each account's day and month happen once.
 */
export function interestLoop(db: Db, log: FastifyBaseLogger, everyMs = 15 * 60_000): LoopSpec {
  return {
    name: "savings-interest",
    everyMs,
    async pass() {
      const pass = await interestPass(db, lastClosedDay());
      if (pass.kind === "credit")
        log.info({ job: "savings-interest", month: pass.on, accounts: pass.done }, "interest credited");
      // Work claimed by another instance answers 0: this one looks again in a few seconds, not a quarter hour.
      if (pass.kind !== "idle" && pass.done === 0) await new Promise((resolve) => setTimeout(resolve, 2_000));
      return { done: pass.done, more: pass.kind !== "idle" };
    },
  };
}
