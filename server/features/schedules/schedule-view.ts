import { formatMoney } from "@/contract/money";
import {
  type ScheduleRun,
  SKIP_REASONS,
  type SkipReason,
  type TransferSchedule,
  UPCOMING_RUNS,
} from "@/contract/schedules";
import type { scheduleRuns, transferSchedules } from "@/server/db/schema";
import { upcomingRunDates } from "@/server/features/schedules/schedule-dates";

export type ScheduleRow = typeof transferSchedules.$inferSelect;
export type ScheduleRunRow = typeof scheduleRuns.$inferSelect;

const REASONS = new Set<string>(SKIP_REASONS);

export function toScheduleRun(row: ScheduleRunRow): ScheduleRun {
  return {
    runOn: row.runOn,
    outcome: row.outcome,
    reason: row.reason !== null && REASONS.has(row.reason) ? (row.reason as SkipReason) : null,
    transferId: row.transferId,
  };
}

/** The next run dates: none unless the schedule is running. */
export function upcomingOf(row: ScheduleRow, count = UPCOMING_RUNS): string[] {
  if (row.status !== "active" || row.nextRunOn === null) return [];
  return upcomingRunDates(row, row.nextRunIndex, count);
}

export function toTransferSchedule(row: ScheduleRow, lastRun: ScheduleRunRow | null): TransferSchedule {
  return {
    id: row.id,
    recipientId: row.recipientId,
    recipientName: row.recipientName,
    address: row.address,
    amountCents: row.amount,
    formattedAmount: formatMoney(row.amount),
    purpose: row.purpose,
    cadence: row.cadence,
    startOn: row.startOn,
    endOn: row.endOn,
    status: row.status,
    upcoming: upcomingOf(row),
    lastRun: lastRun ? toScheduleRun(lastRun) : null,
    createdAt: row.createdAt.toISOString(),
  };
}
