/**
 * Business days as OFAC counts its reporting deadlines: Monday to Friday, less the US federal holidays (as the
 * federal government observes them: one on a Saturday is taken the Friday before, on a Sunday the Monday after).
 * Days are New York calendar days written YYYY-MM-DD; the arithmetic runs on UTC midnights so no zone shifts them.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const toDay = (date: Date) => date.toISOString().slice(0, 10);

/** The nth (1-based) weekday of a month, or the last one with n = -1. Weekday: 0 Sunday … 6 Saturday. */
function nthWeekday(year: number, month: number, weekday: number, n: number): Date {
  if (n === -1) {
    const last = new Date(Date.UTC(year, month + 1, 0));
    return new Date(last.getTime() - ((last.getUTCDay() - weekday + 7) % 7) * DAY_MS);
  }
  const first = new Date(Date.UTC(year, month, 1));
  const offset = (weekday - first.getUTCDay() + 7) % 7;
  return new Date(Date.UTC(year, month, 1 + offset + (n - 1) * 7));
}

function observed(year: number, month: number, day: number): Date {
  const date = new Date(Date.UTC(year, month, day));
  const weekday = date.getUTCDay();
  if (weekday === 6) return new Date(date.getTime() - DAY_MS);
  if (weekday === 0) return new Date(date.getTime() + DAY_MS);
  return date;
}

function federalHolidays(year: number): Date[] {
  return [
    observed(year, 0, 1),
    nthWeekday(year, 0, 1, 3), // Birthday of Martin Luther King, Jr.
    nthWeekday(year, 1, 1, 3), // Washington's Birthday
    nthWeekday(year, 4, 1, -1), // Memorial Day
    observed(year, 5, 19), // Juneteenth
    observed(year, 6, 4),
    nthWeekday(year, 8, 1, 1), // Labor Day
    nthWeekday(year, 9, 1, 2), // Columbus Day
    observed(year, 10, 11), // Veterans Day
    nthWeekday(year, 10, 4, 4), // Thanksgiving Day
    observed(year, 11, 25),
  ];
}

export function isBusinessDay(day: string): boolean {
  const date = toDate(day);
  const weekday = date.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const year = date.getUTCFullYear();
  // Next year's New Year's Day on a Saturday is observed on this year's December 31.
  return ![...federalHolidays(year), ...federalHolidays(year + 1)].some((h) => toDay(h) === day);
}

/** The day `count` business days after `day` (the day itself not counted, whatever it is). */
export function addBusinessDays(day: string, count: number): string {
  let date = toDate(day);
  let left = count;
  while (left > 0) {
    date = new Date(date.getTime() + DAY_MS);
    if (isBusinessDay(toDay(date))) left -= 1;
  }
  return toDay(date);
}
