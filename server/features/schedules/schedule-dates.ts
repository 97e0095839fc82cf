import type { ScheduleCadence } from "@/contract/schedules";

/**
 * A schedule's run dates are New York calendar days (YYYY-MM-DD), computed from its first date and the run's
 * number, never by adding hours to an instant: a run falls on its day whatever daylight saving does to that day's
 * length, and the 31st of a month that has no 31st is that month's last day (the next month is the 31st again).
 * Calendar arithmetic on UTC midnights has no clock changes, so it is exact.
 */

const MS_PER_DAY = 86_400_000;

function toUtc(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

function toDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return toDay(new Date(toUtc(day).getTime() + days * MS_PER_DAY));
}

/** Days from `from` to `to` (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to).getTime() - toUtc(from).getTime()) / MS_PER_DAY);
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** The date `months` calendar months after `day`, on the same day of the month or the month's last day. */
export function addMonthsClamped(day: string, months: number): string {
  const start = toUtc(day);
  const monthIndex = start.getUTCMonth() + months;
  const year = start.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const dayOfMonth = Math.min(start.getUTCDate(), daysInMonth(year, month));
  return toDay(new Date(Date.UTC(year, month, dayOfMonth)));
}

/** Run number `index` (0 is the first) of a schedule starting on `startOn`; null when a one-off has no such run. */
export function runDate(startOn: string, cadence: ScheduleCadence, index: number): string | null {
  switch (cadence) {
    case "once":
      return index === 0 ? startOn : null;
    case "weekly":
      return addDays(startOn, 7 * index);
    case "every_two_weeks":
      return addDays(startOn, 14 * index);
    case "monthly":
      return addMonthsClamped(startOn, index);
  }
}

export interface ScheduleDates {
  startOn: string;
  cadence: ScheduleCadence;
  endOn: string | null;
}

/** Run `index`'s date, or null when the schedule has no such run (a one-off's second, or past the end date). */
export function runDateWithin(schedule: ScheduleDates, index: number): string | null {
  const day = runDate(schedule.startOn, schedule.cadence, index);
  if (day === null) return null;
  if (schedule.endOn !== null && day > schedule.endOn) return null;
  return day;
}

/** The number of the first run on or after `day` (a resumed schedule skips what fell while it was paused). */
export function firstRunIndexFrom(schedule: ScheduleDates, day: string): number {
  if (day <= schedule.startOn) return 0;
  const gap = daysBetween(schedule.startOn, day);
  let index: number;
  switch (schedule.cadence) {
    case "once":
      return 1;
    case "weekly":
      return Math.ceil(gap / 7);
    case "every_two_weeks":
      return Math.ceil(gap / 14);
    case "monthly":
      // A month is at least 28 days: start from below and walk up to the first date on or after `day`.
      index = Math.max(0, Math.floor(gap / 31));
      while ((runDate(schedule.startOn, "monthly", index) ?? "") < day) index++;
      return index;
  }
}

/** Up to `count` run dates from run `fromIndex` on. */
export function upcomingRunDates(schedule: ScheduleDates, fromIndex: number, count: number): string[] {
  const days: string[] = [];
  for (let index = fromIndex; days.length < count; index++) {
    const day = runDateWithin(schedule, index);
    if (day === null) break;
    days.push(day);
  }
  return days;
}

/** Whether a run dated `runOn` is due at `today` (the New York calendar day now, limitDayOf). */
export function isDue(runOn: string, today: string): boolean {
  return runOn <= today;
}
