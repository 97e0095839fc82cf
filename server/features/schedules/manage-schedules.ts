import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { parseMoney } from "@/contract/money";
import {
  type CreateScheduleInput,
  type EditScheduleInput,
  SCHEDULE_HORIZON_DAYS,
  SCHEDULE_LIMIT,
  SCHEDULE_MESSAGES,
  type ScheduleList,
  type TransferSchedule,
  type UpcomingRuns,
} from "@/contract/schedules";
import { DAILY_LIMIT_CENTS } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import type { DbOrTx, Tx } from "@/server/db/client";
import { savedRecipients, scheduleRuns, transferSchedules } from "@/server/db/schema";
import {
  getSecondFactorState,
  secondFactorInvalid,
  spendCodeProof,
  stepUpRequired,
  verifySecondFactor,
} from "@/server/features/auth/second-factor";
import { countingSecondFactorFailures } from "@/server/features/auth/second-factor-lock";
import { scheduleBinding } from "@/server/features/schedules/schedule-binding";
import { addDays, firstRunIndexFrom, runDateWithin } from "@/server/features/schedules/schedule-dates";
import { wakeScheduleRunner } from "@/server/features/schedules/schedule-runner";
import {
  type ScheduleRow,
  type ScheduleRunRow,
  toTransferSchedule,
  upcomingOf,
} from "@/server/features/schedules/schedule-view";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { refuseClosedAccount } from "@/server/lib/account-closed";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OPEN = ["active", "paused"] as const;
/** Ended schedules kept in the list: the most recent ones. */
const LIST_SIZE = 50;

const notFound = () => new AppError("NOT_FOUND", SCHEDULE_MESSAGES.notFound);
const stateConflict = (message: string) => new AppError("schedule_state", message);

/** The amount in cents: positive and within the bank's daily limit, which no single run could pass. */
function amountOf(input: string | number): number {
  const cents = parseMoney(input);
  if (cents === null) throw new AppError("VALIDATION", SCHEDULE_MESSAGES.amountInvalid);
  if (cents <= 0) throw new AppError("VALIDATION", SCHEDULE_MESSAGES.amountPositive);
  if (cents > DAILY_LIMIT_CENTS) throw new AppError("VALIDATION", SCHEDULE_MESSAGES.amountOverLimit);
  return cents;
}

/** The first date from today (New York) to two years ahead; the end date on or after it and as near. */
function checkDates(today: string, startOn: string, endOn: string | null, startChanged: boolean): void {
  const horizon = addDays(today, SCHEDULE_HORIZON_DAYS);
  if (startChanged && startOn < today) throw new AppError("VALIDATION", SCHEDULE_MESSAGES.startInPast);
  if (startOn > horizon) throw new AppError("VALIDATION", SCHEDULE_MESSAGES.startTooFar);
  if (endOn !== null && endOn < startOn) throw new AppError("VALIDATION", SCHEDULE_MESSAGES.endBeforeStart);
  if (endOn !== null && endOn > horizon) throw new AppError("VALIDATION", SCHEDULE_MESSAGES.endTooFar);
}

/**
 * Each schedule's latest run: one backward probe of (schedule_id, run_on) per schedule, not every run of a
 * schedule that has run daily for years, sorted to keep one (decision 066).
 */
async function lastRunsOf(db: DbOrTx, ids: string[]): Promise<Map<string, ScheduleRunRow>> {
  if (ids.length === 0) return new Map();
  // Aliases named in full: a column of the outer table inside the correlated subquery would render unqualified
  // and bind to schedule_runs' own column of that name.
  const rows = await db
    .select()
    .from(scheduleRuns)
    .where(
      sql`${scheduleRuns.id} in (select (select r.id from schedule_runs r where r.schedule_id = s.id
        order by r.run_on desc limit 1) from unnest(${`{${ids.join(",")}}`}::uuid[]) as s(id))`,
    );
  return new Map(rows.map((row) => [row.scheduleId, row]));
}

async function viewOf(db: DbOrTx, row: ScheduleRow): Promise<TransferSchedule> {
  return toTransferSchedule(row, (await lastRunsOf(db, [row.id])).get(row.id) ?? null);
}

/** The customer's schedules: running and paused first, then the most recently ended. */
export async function findSchedules(db: DbOrTx, userId: string): Promise<ScheduleList> {
  const rows = await db
    .select()
    .from(transferSchedules)
    .where(eq(transferSchedules.userId, userId))
    .orderBy(
      sql`case when ${transferSchedules.status} in ('active', 'paused') then 0 else 1 end`,
      desc(transferSchedules.createdAt),
      desc(transferSchedules.id),
    )
    .limit(LIST_SIZE);
  const lastRuns = await lastRunsOf(
    db,
    rows.map((row) => row.id),
  );
  return {
    items: rows.map((row) => toTransferSchedule(row, lastRuns.get(row.id) ?? null)),
    limit: SCHEDULE_LIMIT,
  };
}

/** The dashboard's "Coming up": the next runs of every running schedule, soonest first. */
export async function findUpcomingRuns(db: DbOrTx, userId: string, count = 5): Promise<UpcomingRuns> {
  const rows = await db
    .select()
    .from(transferSchedules)
    .where(and(eq(transferSchedules.userId, userId), eq(transferSchedules.status, "active")));
  const items = rows
    .flatMap((row) =>
      upcomingOf(row, count).map((runOn) => ({
        scheduleId: row.id,
        runOn,
        recipientName: row.recipientName,
        amountCents: row.amount,
        formattedAmount: toTransferSchedule(row, null).formattedAmount,
      })),
    )
    .sort((a, b) => a.runOn.localeCompare(b.runOn) || a.scheduleId.localeCompare(b.scheduleId))
    .slice(0, count);
  return { items };
}

interface ScheduleMaker {
  id: string;
  /** This session stepped up in the last five minutes (a passkey proves itself that way on the web). */
  steppedUp?: boolean;
}

/** The new schedule's fields, checked: the recipient is one of the customer's own saved recipients. */
async function draftOf(db: DbOrTx, user: ScheduleMaker, input: CreateScheduleInput, today: string) {
  const amount = amountOf(input.amount);
  const endOn = input.endOn ?? null;
  checkDates(today, input.startOn, endOn, true);
  const [recipient] = UUID.test(input.recipientId)
    ? await db
        .select()
        .from(savedRecipients)
        .where(
          and(eq(savedRecipients.id, input.recipientId.toLowerCase()), eq(savedRecipients.userId, user.id)),
        )
    : [];
  if (!recipient) throw new AppError("NOT_FOUND", SCHEDULE_MESSAGES.recipientNotFound);
  return { amount, endOn, recipient };
}

/** The passkey binding of a new schedule, shared by the options route and the creation. */
export async function bindingOfSchedule(
  db: DbOrTx,
  user: ScheduleMaker,
  input: Omit<CreateScheduleInput, "secondFactor">,
  now: Date,
): Promise<string> {
  const { amount, endOn, recipient } = await draftOf(db, user, input, limitDayOf(now));
  return scheduleBinding({
    recipientId: recipient.id,
    address: recipient.address,
    amountCents: amount,
    cadence: input.cadence,
    startOn: input.startOn,
    endOn,
    requestKey: input.requestKey,
  });
}

async function existingByKey(
  db: DbOrTx,
  userId: string,
  requestKey: string,
): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .select()
    .from(transferSchedules)
    .where(and(eq(transferSchedules.userId, userId), eq(transferSchedules.requestKey, requestKey)));
  return row;
}

/**
 * A schedule to one of the customer's saved recipients. Like a transfer, it needs the second factor when one is
 * enrolled: a one-time code spent in the same transaction, a passkey that signed the schedule's own fields
 * (recipient, address, amount, cadence, dates, request key), or, as for a payment by $tag, this session's fresh
 * step-up. The same request key answers the first schedule.
 */
export function createSchedule(
  deps: AppDeps,
  user: ScheduleMaker,
  input: CreateScheduleInput,
  now: Date = new Date(),
): Promise<{ schedule: TransferSchedule; replayed: boolean }> {
  return countingSecondFactorFailures(deps, user.id, () => createScheduleChecked(deps, user, input, now));
}

async function createScheduleChecked(
  deps: AppDeps,
  user: ScheduleMaker,
  input: CreateScheduleInput,
  now: Date,
): Promise<{ schedule: TransferSchedule; replayed: boolean }> {
  const { db } = deps.database;
  const replay = await existingByKey(db, user.id, input.requestKey);
  if (replay) return { schedule: await viewOf(db, replay), replayed: true };
  const today = limitDayOf(now);
  const { amount, endOn, recipient } = await draftOf(db, user, input, today);
  const proof = input.secondFactor;
  const factors = await getSecondFactorState(db, user.id);
  if (factors.enabled && !proof && user.steppedUp !== true) throw stepUpRequired(factors.methods);
  if (factors.enabled && proof?.method === "passkey") {
    await verifySecondFactor(deps, db, user.id, proof, {
      purpose: "transfer",
      binding: scheduleBinding({
        recipientId: recipient.id,
        address: recipient.address,
        amountCents: amount,
        cadence: input.cadence,
        startOn: input.startOn,
        endOn,
        requestKey: input.requestKey,
      }),
    });
  }
  if (!factors.enabled && proof) throw secondFactorInvalid(proof.method);
  const { row, replayed } = await db.transaction(async (tx) => {
    // Lock the customer first: two creations racing at the cap must not both see room for one more.
    await tx.execute(sql`select id from users where id = ${user.id} for no key update`);
    const again = await existingByKey(tx, user.id, input.requestKey);
    if (again) return { row: again, replayed: true };
    await refuseClosedAccount(tx, user.id);
    if (factors.enabled && proof && proof.method !== "passkey")
      await spendCodeProof(deps, tx, user.id, proof);
    const [{ open }] = (await tx
      .select({ open: sql<number>`count(*)::int` })
      .from(transferSchedules)
      .where(and(eq(transferSchedules.userId, user.id), inArray(transferSchedules.status, [...OPEN])))) as [
      { open: number },
    ];
    if (open >= SCHEDULE_LIMIT) {
      throw new AppError("schedule_limit_reached", SCHEDULE_MESSAGES.limit);
    }
    const [created] = await tx
      .insert(transferSchedules)
      .values({
        userId: user.id,
        recipientId: recipient.id,
        recipientName: recipient.name,
        address: recipient.address,
        amount,
        purpose: input.purpose ?? `Scheduled transfer to ${recipient.name}`,
        cadence: input.cadence,
        startOn: input.startOn,
        endOn,
        nextRunIndex: 0,
        nextRunOn: input.startOn,
        requestKey: input.requestKey,
      })
      .returning();
    await writeAudit(tx, {
      actorId: user.id,
      action: "schedule.create",
      targetType: "transfer_schedule",
      targetId: created!.id,
      subjectUserId: user.id,
      after: { recipientId: recipient.id, amount, cadence: input.cadence, startOn: input.startOn, endOn },
    });
    return { row: created!, replayed: false };
  });
  if (!replayed && row.startOn <= today) wakeScheduleRunner();
  return { schedule: await viewOf(db, row), replayed };
}

/** Locks one of the customer's own schedules; anyone else's (or a malformed id) is simply not found. */
async function lockOwn(tx: Tx, userId: string, scheduleId: string): Promise<ScheduleRow> {
  if (!UUID.test(scheduleId)) throw notFound();
  const [row] = await tx
    .select()
    .from(transferSchedules)
    .where(and(eq(transferSchedules.id, scheduleId.toLowerCase()), eq(transferSchedules.userId, userId)))
    .for("update");
  if (!row) throw notFound();
  return row;
}

async function changeSchedule(
  deps: AppDeps,
  userId: string,
  scheduleId: string,
  action: string,
  change: (row: ScheduleRow) => Partial<ScheduleRow>,
): Promise<TransferSchedule> {
  const row = await deps.database.db.transaction(async (tx) => {
    const before = await lockOwn(tx, userId, scheduleId);
    const set = change(before);
    const [after] = await tx
      .update(transferSchedules)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(transferSchedules.id, before.id))
      .returning();
    await writeAudit(tx, {
      actorId: userId,
      action,
      targetType: "transfer_schedule",
      targetId: before.id,
      subjectUserId: userId,
      before: { status: before.status, amount: before.amount, cadence: before.cadence, endOn: before.endOn },
      after: { status: after!.status, amount: after!.amount, cadence: after!.cadence, endOn: after!.endOn },
    });
    return after!;
  });
  return viewOf(deps.database.db, row);
}

/** Where a schedule picks up from `today`: its first run on or after it, or completed when none is left. */
function restartFrom(
  row: Pick<ScheduleRow, "startOn" | "cadence" | "endOn" | "nextRunIndex">,
  today: string,
) {
  const index = Math.max(row.nextRunIndex, firstRunIndexFrom(row, today));
  const nextRunOn = runDateWithin(row, index);
  return {
    nextRunIndex: index,
    nextRunOn,
    status: nextRunOn === null ? ("completed" as const) : ("active" as const),
  };
}

export function pauseSchedule(deps: AppDeps, userId: string, scheduleId: string): Promise<TransferSchedule> {
  return changeSchedule(deps, userId, scheduleId, "schedule.pause", (row) => {
    if (row.status !== "active") throw stateConflict(SCHEDULE_MESSAGES.notActive);
    return { status: "paused" };
  });
}

/** Resumes from today: the runs that fell while it was paused are not made late. */
export function resumeSchedule(
  deps: AppDeps,
  userId: string,
  scheduleId: string,
  now: Date = new Date(),
): Promise<TransferSchedule> {
  const today = limitDayOf(now);
  return changeSchedule(deps, userId, scheduleId, "schedule.resume", (row) => {
    if (row.status !== "paused") throw stateConflict(SCHEDULE_MESSAGES.notPaused);
    const next = restartFrom(row, today);
    if (next.nextRunOn === null) throw stateConflict(SCHEDULE_MESSAGES.nothingLeft);
    return next;
  });
}

export function cancelSchedule(deps: AppDeps, userId: string, scheduleId: string): Promise<TransferSchedule> {
  return changeSchedule(deps, userId, scheduleId, "schedule.cancel", (row) => {
    if (row.status !== "active" && row.status !== "paused") throw stateConflict(SCHEDULE_MESSAGES.ended);
    return { status: "cancelled", nextRunOn: null };
  });
}

/**
 * Changes the amount, cadence, dates or purpose (the route asked for a fresh step-up). The next run is the first
 * one on or after today under the new dates; a date already run is never run again (its run row is unique).
 */
export function editSchedule(
  deps: AppDeps,
  userId: string,
  scheduleId: string,
  input: EditScheduleInput,
  now: Date = new Date(),
): Promise<TransferSchedule> {
  const today = limitDayOf(now);
  const amount = input.amount === undefined ? undefined : amountOf(input.amount);
  return changeSchedule(deps, userId, scheduleId, "schedule.edit", (row) => {
    if (row.status !== "active" && row.status !== "paused") throw stateConflict(SCHEDULE_MESSAGES.ended);
    const dates = {
      startOn: input.startOn ?? row.startOn,
      cadence: input.cadence ?? row.cadence,
      endOn: input.endOn === undefined ? row.endOn : input.endOn,
    };
    checkDates(today, dates.startOn, dates.endOn, input.startOn !== undefined);
    const datesChanged =
      dates.startOn !== row.startOn || dates.cadence !== row.cadence || dates.endOn !== row.endOn;
    const next = datesChanged
      ? restartFrom(
          {
            ...dates,
            nextRunIndex:
              dates.startOn === row.startOn && dates.cadence === row.cadence ? row.nextRunIndex : 0,
          },
          today,
        )
      : null;
    if (next && next.nextRunOn === null) throw new AppError("VALIDATION", SCHEDULE_MESSAGES.nothingLeft);
    return {
      ...dates,
      ...(amount === undefined ? {} : { amount }),
      ...(input.purpose === undefined ? {} : { purpose: input.purpose }),
      ...(next ? { nextRunIndex: next.nextRunIndex, nextRunOn: next.nextRunOn } : {}),
    };
  });
}
