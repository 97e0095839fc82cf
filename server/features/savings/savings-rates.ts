import { sql } from "drizzle-orm";
import { z } from "zod";
import type { PendingApprovalResponse } from "@/contract/approvals";
import {
  type ProposeSavingsRateInput,
  SAVINGS_RATE_MESSAGES,
  type SavingsRateHistory,
} from "@/contract/savings-admin";
import { formatApy } from "@/contract/savings-text";
import { type Db, type DbOrTx, queryRows } from "@/server/db/client";
import { type ApprovalAction, approvalPayload } from "@/server/features/approvals/approval-actions";
import { type StaffActor, submitForApproval } from "@/server/features/approvals/request-approval";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import type { LoopSpec } from "@/server/jobs/loop";
import { AppError, pgConstraint, pgErrorCode } from "@/server/lib/errors";
import { savingsRateChangeMail } from "@/server/lib/mail/money-templates";
import { notifyAll } from "@/server/lib/notifications";

/**
 * The savings APY's maker-checker (decision 071): an owner proposes a rate from a future New York day,
 * a second finance member or owner approves it on the approvals routes, and the customers with savings are told,
 * in batches, after the approval commits. A day's interest reads the approved rate in force that day
 * (savings_rate_on), so a rate approved for a future day never changes interest already accrued.
 */

/** The rate in force on `day`, as the accrual reads it. */
async function rateOn(db: DbOrTx, day: string): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select savings_rate_on(${day}::date) as bps`,
    z.object({ bps: z.number().int() }),
  );
  if (!row) throw new Error("No approved savings rate: run the migrations");
  return row.bps;
}

/**
 * POST /api/admin/savings/rates (owners): the proposal and its pending approval in one transaction; nothing changes
 * until a second staff member approves. The day must be after today (New York): today's interest accrues tonight
 * at today's rate, and a past day's has accrued.
 */
export async function proposeSavingsRate(
  db: Db,
  maker: StaffActor,
  input: ProposeSavingsRateInput,
  now = new Date(),
): Promise<{ status: 202; body: PendingApprovalResponse }> {
  const today = limitDayOf(now);
  if (input.effectiveOn <= today)
    throw new AppError("VALIDATION", SAVINGS_RATE_MESSAGES.effectiveNotFuture, { field: "effectiveOn" });
  return submitForApproval(db, maker, async (tx) => {
    const [taken] = await queryRows(
      tx,
      sql`select 1 as one from savings_rates where status = 'approved' and effective_on = ${input.effectiveOn}::date`,
      z.object({ one: z.number() }),
    );
    if (taken)
      throw new AppError("CONFLICT", SAVINGS_RATE_MESSAGES.alreadyApproved, { field: "effectiveOn" });
    const current = await rateOn(tx, input.effectiveOn);
    const [rate] = await queryRows(
      tx,
      sql`insert into savings_rates (apy_bps, effective_on, status, proposed_by)
          values (${input.apyBps}, ${input.effectiveOn}::date, 'proposed', ${maker.id})
          returning id::text as id`,
      z.object({ id: z.string() }),
    );
    return {
      kind: "savings_rate",
      userId: null,
      // One pending proposal per effective day.
      targetKey: input.effectiveOn,
      payload: { op: "savings_rate", rateId: rate!.id, apyBps: input.apyBps, effectiveOn: input.effectiveOn },
      amount: null,
      before: { apy: formatApy(current), effectiveOn: input.effectiveOn },
      after: { apy: formatApy(input.apyBps), effectiveOn: input.effectiveOn },
      reason: input.reason,
    };
  });
}

/**
 * The checker's approval, in the approval's transaction: the rate row locked, its day still in the future (a
 * checker acting on or after it would change interest the accrual may have read at the old rate), then approved
 * with the rate it replaces. The approval's own update then records who decided (savings_rate_decided), and the
 * notice loop tells the customers after the commit.
 */
export const approveSavingsRate =
  (clock: () => Date = () => new Date()): ApprovalAction =>
  async (tx, row) => {
    const { rateId } = approvalPayload(row, ["savings_rate"]);
    const [rate] = await queryRows(
      tx,
      sql`select status, effective_on::text as effective_on from savings_rates where id = ${rateId}::uuid for update`,
      z.object({ status: z.string(), effective_on: z.string() }),
    );
    if (rate?.status !== "proposed") throw new AppError("stale_approval", SAVINGS_RATE_MESSAGES.notProposed);
    if (rate.effective_on <= limitDayOf(clock()))
      throw new AppError("stale_approval", SAVINGS_RATE_MESSAGES.effectivePassed);
    const previous = await rateOn(tx, rate.effective_on);
    try {
      await tx.execute(sql`update savings_rates set status = 'approved', previous_bps = ${previous}
        where id = ${rateId}::uuid`);
    } catch (err) {
      if (pgErrorCode(err) === "23505" && pgConstraint(err) === "savings_rates_effective_idx")
        throw new AppError("stale_approval", SAVINGS_RATE_MESSAGES.alreadyApproved);
      throw err;
    }
    return { rateId, effectiveOn: rate.effective_on, previousApy: formatApy(previous) };
  };

const historyRow = z.object({
  id: z.string(),
  apy_bps: z.number().int(),
  effective_on: z.string(),
  status: z.enum(["proposed", "approved", "rejected"]),
  previous_bps: z.number().int().nullable(),
  proposed_by: z.string().nullable(),
  proposed_email: z.string().nullable(),
  decided_by: z.string().nullable(),
  decided_email: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  approval_id: z.string().nullable(),
  notice_done: z.boolean().nullable(),
});

const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** GET /api/admin/savings/rates (finance, owners): every rate with who proposed and decided it. */
export async function findSavingsRates(db: DbOrTx, now = new Date()): Promise<SavingsRateHistory> {
  const today = limitDayOf(now);
  const rows = await queryRows(
    db,
    sql`select r.id::text as id, r.apy_bps, r.effective_on::text as effective_on, r.status, r.previous_bps,
          r.proposed_by::text as proposed_by, p.email as proposed_email,
          r.decided_by::text as decided_by, d.email as decided_email,
          ${iso("r.created_at")} as created_at, ${iso("r.decided_at")} as decided_at,
          coalesce(r.approval_id, (select a.id from approvals a where r.status = 'proposed'
            and a.kind = 'savings_rate' and a.status = 'pending' and a.payload->>'rateId' = r.id::text))::text
            as approval_id,
          case when r.status = 'approved' and r.approval_id is not null then r.notice_done_at is not null end
            as notice_done
        from savings_rates r
        left join users p on p.id = r.proposed_by
        left join users d on d.id = r.decided_by
        order by r.effective_on desc, r.created_at desc
        limit 200`,
    historyRow,
  );
  const current = await rateOn(db, today);
  return {
    today,
    current: { apyBps: current, apy: formatApy(current) },
    rates: rows.map((r) => ({
      id: r.id,
      apyBps: r.apy_bps,
      apy: formatApy(r.apy_bps),
      effectiveOn: r.effective_on,
      status: r.status,
      previousApy: r.previous_bps === null ? null : formatApy(r.previous_bps),
      proposedBy: r.proposed_by ? { id: r.proposed_by, email: r.proposed_email } : null,
      decidedBy: r.decided_by ? { id: r.decided_by, email: r.decided_email } : null,
      createdAt: r.created_at,
      decidedAt: r.decided_at,
      approvalId: r.approval_id,
      notice: r.notice_done === null ? null : r.notice_done ? "done" : "sending",
    })),
  };
}

/** Customers told per batch: one transaction writes their notifications and mail and moves the cursor. */
export const RATE_NOTICE_BATCH = 1000;

const DAY_FORMAT = new Intl.DateTimeFormat("en-US", {
  month: "long",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/**
 * One batch of an approved change's notice: the oldest approved rate not yet announced, claimed with SKIP LOCKED
 * (another instance takes the next one or waits for this one), its next customers with open savings in user id
 * order after its cursor, told in the centre and by e-mail as their "Deposits and credits" choices say, and the
 * cursor moved in the same transaction: each customer is told once, a kill repeats nothing. Answers how many were
 * told and whether more remain.
 */
export async function rateNoticePass(
  db: Db,
  batchSize = RATE_NOTICE_BATCH,
): Promise<{ done: number; more: boolean }> {
  return db.transaction(async (tx) => {
    const [rate] = await queryRows(
      tx,
      sql`select id::text as id, apy_bps, previous_bps, effective_on::text as effective_on,
            notice_cursor::text as cursor
          from savings_rates
          where status = 'approved' and approval_id is not null and notice_done_at is null
          order by decided_at, id limit 1 for update skip locked`,
      z.object({
        id: z.string(),
        apy_bps: z.number().int(),
        previous_bps: z.number().int().nullable(),
        effective_on: z.string(),
        cursor: z.string().nullable(),
      }),
    );
    if (!rate) return { done: 0, more: false };
    // Keyset on the open accounts' unique index (savings_accounts_open_user_idx): a batch reads its rows only.
    const customers = await queryRows(
      tx,
      sql`select s.user_id::text as user_id, u.email, u.first_name
          from savings_accounts s join users u on u.id = s.user_id
          where s.closed_at is null and s.user_id > coalesce(${rate.cursor}::uuid, '00000000-0000-0000-0000-000000000000'::uuid)
          order by s.user_id limit ${batchSize}`,
      z.object({ user_id: z.string(), email: z.string(), first_name: z.string() }),
    );
    const from = formatApy(rate.previous_bps ?? rate.apy_bps);
    const to = formatApy(rate.apy_bps);
    const when = DAY_FORMAT.format(new Date(`${rate.effective_on}T00:00:00Z`));
    await notifyAll(
      tx,
      customers.map((c) => ({
        userId: c.user_id,
        kind: "money_in" as const,
        content: {
          title: SAVINGS_RATE_MESSAGES.changingTitle,
          body: `Your savings APY changes from ${from} to ${to} on ${when}.`,
          link: "/savings",
        },
        mail: savingsRateChangeMail(c.email, { firstName: c.first_name, from, to, effectiveOn: when }),
      })),
    );
    const last = customers.at(-1)?.user_id ?? rate.cursor;
    const finished = customers.length < batchSize;
    await tx.execute(sql`update savings_rates set notice_cursor = ${last}::uuid,
      notice_done_at = ${finished ? sql`now()` : sql`null`} where id = ${rate.id}::uuid`);
    // A rate was claimed: the next pass takes its next batch, or the next rate, or finds nothing.
    return { done: customers.length, more: true };
  });
}

/** Every batch of every approved change's notice, to the end (tests, operations). */
export async function sendRateNotices(db: Db, batchSize = RATE_NOTICE_BATCH): Promise<number> {
  let told = 0;
  for (;;) {
    const pass = await rateNoticePass(db, batchSize);
    told += pass.done;
    if (!pass.more) return told;
  }
}

/** The notice in the jobs room (loops.ts): a batch a pass, at once while there is more, else every minute. */
export function rateNoticeLoop(db: Db, everyMs = 60_000): LoopSpec {
  return { name: "savings-rate-notice", everyMs, pass: () => rateNoticePass(db) };
}
