import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import { SKIP_REASON_TEXT, SKIP_REASONS, type SkipReason, scheduleCadence } from "@/contract/schedules";
import type { AppDeps } from "@/server/app-deps";
import { queryRows } from "@/server/db/client";
import { runDateWithin } from "@/server/features/schedules/schedule-dates";
import { publicBaseUrl } from "@/server/features/security/freeze-links";
import { createTransfer } from "@/server/features/transfers/create-transfer";
import { AppError } from "@/server/lib/errors";
import { scheduledTransferSkippedMail } from "@/server/lib/mail/money-templates";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { notify } from "@/server/lib/notifications";

/** A due schedule as the runner claimed it. */
export const claimedSchedule = z.object({
  id: z.string(),
  user_id: z.string(),
  recipient_id: z.string().nullable(),
  recipient_name: z.string(),
  address: z.string(),
  amount: z.coerce.number().int().positive(),
  purpose: z.string(),
  cadence: scheduleCadence,
  start_on: z.string(),
  end_on: z.string().nullable(),
  next_run_index: z.number().int(),
  next_run_on: z.string(),
});
export type ClaimedSchedule = z.infer<typeof claimedSchedule>;

/** Where a run can be stopped by a test (a SIGKILL there must still leave exactly one transfer). */
export type RunStep = "claimed" | "transfer-made" | "recorded";

export type RunOutcome =
  | { outcome: "made"; transferId: string }
  | { outcome: "skipped"; reason: SkipReason }
  | { outcome: "already-recorded" }
  | { outcome: "not-active" };

/**
 * The run's own Idempotency-Key and its reference on the transfer (schedule_run_key): the same schedule and date
 * always make the same key, on any instance, and the reference outlives the key's week.
 */
export function runIdempotencyKey(scheduleId: string, runOn: string): string {
  return `schedule:${scheduleId}:${runOn}`;
}

const SKIPPABLE = new Set<string>(SKIP_REASONS);

function asAmount(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** "Tuesday, December 1, 2026" for a calendar day, whatever the server's zone. */
export function longDay(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString("en-US", {
    timeZone: "UTC",
    weekday: "long",
    month: "long",
    day: "numeric",
    year: "numeric",
  });
}

/** A refusal the customer can act on is a skip with its reason; anything else (the database gone) is thrown. */
function skipReasonOf(err: unknown): SkipReason | null {
  if (!(err instanceof AppError)) return null;
  if (err.reason === "transfer_under_review") return "under_review";
  if (err.reason && SKIPPABLE.has(err.reason)) return err.reason as SkipReason;
  // The hold's CHECK lost a race with another debit after the function's balance check.
  if (err.reason === "hold_insufficient_funds") return "insufficient_funds";
  if (err.status >= 400 && err.status < 500) return "not_made";
  return null;
}

async function makeRun(deps: AppDeps, schedule: ClaimedSchedule, now: Date): Promise<RunOutcome> {
  const { db } = deps.database;
  const key = runIdempotencyKey(schedule.id, schedule.next_run_on);
  const [state] = await queryRows(
    db,
    sql`select s.status, exists (select 1 from schedule_runs r where r.schedule_id = s.id and r.run_on = ${schedule.next_run_on}::date) as recorded,
               (select t.id from transfer_requests t where t.schedule_run_key = ${key}) as made
        from transfer_schedules s where s.id = ${schedule.id}`,
    z.object({ status: z.string(), recorded: z.boolean(), made: z.string().nullable() }),
  );
  if (state?.status !== "active") return { outcome: "not-active" };
  if (state.recorded) return { outcome: "already-recorded" };
  // Made before a crash kept it from being recorded: record it as made, whatever changed since (a removed
  // recipient, a new sanctions list). create_transfer_request answers the same under the wallet lock.
  if (state.made !== null) return { outcome: "made", transferId: state.made };
  if (schedule.recipient_id === null) return { outcome: "skipped", reason: "recipient_removed" };
  const [user] = await queryRows(
    db,
    sql`select cardinality(staff_roles) > 0 as is_staff from users where id = ${schedule.user_id}`,
    z.object({ is_staff: z.boolean() }),
  );
  if (!user) return { outcome: "not-active" };
  if (user.is_staff) return { outcome: "skipped", reason: "staff_account" };

  // A run never makes a transfer that would wait under review for sanctions or a compliance hold: createTransfer
  // refuses it (runUnderReview, a listed payee or address, or a hold, checked under the wallet lock) and the run
  // is skipped and the customer told, as a refusal is; a transfer the customer makes by hand still goes to review.
  try {
    const result = await createTransfer(
      deps,
      { id: schedule.user_id, isAdmin: false, session: null },
      {
        amount: asAmount(schedule.amount),
        recipientName: schedule.recipient_name,
        purpose: schedule.purpose,
        paymentMethod: "crypto",
        cryptoAddress: schedule.address,
        // The customer's own saved recipient: its address is the one they saved, never a lookalike of it.
        confirmLookalikeAddress: true,
      },
      key,
      now,
      {},
      { scheduleRunKey: key },
    );
    return { outcome: "made", transferId: result.body.transferRequest.id };
  } catch (err) {
    const reason = skipReasonOf(err);
    if (reason === null) throw err;
    return { outcome: "skipped", reason };
  }
}

/**
 * Records the run and moves the schedule to its next date, in one transaction: the (schedule, date) row is
 * written once (a second runner that made the same run finds it and tells no one again), the notification goes
 * with it, and the schedule only moves if no one moved it meanwhile.
 */
async function recordRun(deps: AppDeps, schedule: ClaimedSchedule, run: RunOutcome): Promise<void> {
  const nextIndex = schedule.next_run_index + 1;
  const nextOn = runDateWithin(
    { startOn: schedule.start_on, cadence: schedule.cadence, endOn: schedule.end_on },
    nextIndex,
  );
  const told = await deps.database.db.transaction(async (tx) => {
    let inserted: { id: string }[] = [];
    if (run.outcome === "made" || run.outcome === "skipped") {
      inserted = await queryRows(
        tx,
        sql`insert into schedule_runs (schedule_id, user_id, run_on, outcome, reason, transfer_id)
            values (${schedule.id}, ${schedule.user_id}, ${schedule.next_run_on}::date, ${run.outcome},
                    ${run.outcome === "skipped" ? run.reason : null}, ${run.outcome === "made" ? run.transferId : null})
            on conflict (schedule_id, run_on) do nothing returning id`,
        z.object({ id: z.string() }),
      );
      if (inserted.length > 0)
        await notifyRun(tx, schedule, run, nextOn, `${publicBaseUrl(deps.config)}/schedules`);
    }
    if (run.outcome === "not-active") {
      await tx.execute(sql`update transfer_schedules set lease_until = null where id = ${schedule.id}`);
      return false;
    }
    await tx.execute(sql`
      update transfer_schedules
         set next_run_index = ${nextIndex}, next_run_on = ${nextOn}::date, lease_until = null, updated_at = now(),
             status = case when ${nextOn}::date is null and status in ('active', 'paused') then 'completed' else status end
       where id = ${schedule.id} and next_run_index = ${schedule.next_run_index}`);
    return inserted.length > 0;
  });
  // A skipped run's e-mail went to the outbox with its record.
  if (told && run.outcome === "skipped") wakeMailWorker();
}

async function notifyRun(
  tx: Parameters<typeof notify>[0],
  schedule: ClaimedSchedule,
  run: Extract<RunOutcome, { outcome: "made" | "skipped" }>,
  nextOn: string | null,
  schedulesUrl: string,
): Promise<void> {
  const amount = formatMoney(schedule.amount);
  const day = longDay(schedule.next_run_on);
  const then =
    nextOn === null ? "This was the schedule's last transfer." : `The next one is on ${longDay(nextOn)}.`;
  if (run.outcome === "made") {
    await notify(tx, schedule.user_id, "transfer_status", {
      title: "Scheduled transfer requested",
      body: `Your scheduled transfer of ${amount} to ${schedule.recipient_name} for ${day} is now a transfer request. ${then}`,
      link: `/transfers/${run.transferId}`,
    });
    return;
  }
  const [owner] = await queryRows(
    tx,
    sql`select email, first_name from users where id = ${schedule.user_id}`,
    z.object({ email: z.string(), first_name: z.string() }),
  );
  const reason = SKIP_REASON_TEXT[run.reason];
  await notify(
    tx,
    schedule.user_id,
    "transfer_status",
    {
      title: "Scheduled transfer skipped",
      body: `Your scheduled transfer of ${amount} to ${schedule.recipient_name} for ${day} was not made: ${reason}. ${then}`,
      link: "/schedules",
    },
    owner &&
      scheduledTransferSkippedMail(owner.email, {
        firstName: owner.first_name,
        amount,
        recipientName: schedule.recipient_name,
        day,
        reason,
        then,
        url: schedulesUrl,
      }),
  );
}

/** One claimed schedule's due run, from the check that it still runs to the recorded outcome. */
export async function runClaimedSchedule(
  deps: AppDeps,
  schedule: ClaimedSchedule,
  now: Date,
  at: (step: RunStep) => void = () => {},
): Promise<RunOutcome> {
  at("claimed");
  const run = await makeRun(deps, schedule, now);
  at("transfer-made");
  await recordRun(deps, schedule, run);
  at("recorded");
  return run;
}
