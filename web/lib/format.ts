// Written by hand, not with Intl.DateTimeFormat: the first Intl formatter a page makes loads ICU's locale data,
// ~90 ms of main thread on a phone-class CPU in the dashboard's Lighthouse profile. US English only.
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

// One rule for every time a customer or staff member reads (docs/architecture.md "Design notes"): New York
// time, the bank's day (limits, statements, PDFs and e-mails already count in it), with the zone written as
// "ET" whenever a clock time shows, whatever zone the browser is in. A calendar date ("2026-12-29", a due
// day) is that day everywhere, never shifted.

/** The zone written after a clock time. */
export const BANK_ZONE_LABEL = "ET";

const HOUR_MS = 3_600_000;

/** Day of the month of the `nth` Sunday of `month` (0-based) in `year`. */
function nthSunday(year: number, month: number, nth: number): number {
  const firstWeekday = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return 1 + ((7 - firstWeekday) % 7) + (nth - 1) * 7;
}

/**
 * New York's offset from UTC in hours at `ms`: −4 from the second Sunday of March at 2:00 EST to the first
 * Sunday of November at 2:00 EDT, −5 otherwise (the US rule since 2007). By hand, as the months above.
 */
function newYorkOffsetHours(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const daylightFrom = Date.UTC(year, 2, nthSunday(year, 2, 2), 7);
  const daylightUntil = Date.UTC(year, 10, nthSunday(year, 10, 1), 6);
  return ms >= daylightFrom && ms < daylightUntil ? -4 : -5;
}

/** The wall clock in New York at `date`, as a Date to read with its getUTC* methods only. */
function newYorkWallClock(date: Date): Date {
  return new Date(date.getTime() + newYorkOffsetHours(date.getTime()) * HOUR_MS);
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The calendar day a value names, as a wall-clock Date (getUTC* only): a plain "YYYY-MM-DD" is that day as it
 * is; an instant is its New York day. Null when unreadable.
 */
function bankDay(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const plain = typeof value === "string" ? CALENDAR_DATE.exec(value) : null;
  if (plain) return new Date(Date.UTC(Number(plain[1]), Number(plain[2]) - 1, Number(plain[3])));
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return newYorkWallClock(date);
}

/** An instant as a Date, or null when missing or unreadable. */
function instantOf(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const shortMonthAndDay = (wall: Date) => `${MONTHS[wall.getUTCMonth()].slice(0, 3)} ${wall.getUTCDate()}`;

function clockOf(wall: Date): string {
  const hours = wall.getUTCHours();
  return `${hours % 12 || 12}:${String(wall.getUTCMinutes()).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"}`;
}

/** New York time on a 12-hour clock with its zone, e.g. "3:04 PM ET". */
export function formatClockTime(date: Date): string {
  return `${clockOf(newYorkWallClock(date))} ${BANK_ZONE_LABEL}`;
}

/** Long US date of the bank's day, e.g. "November 22, 2026"; an unreadable value shows as an em dash. */
export function formatDate(value: string | Date | null | undefined): string {
  const day = bankDay(value);
  if (!day) return "—";
  return `${MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}, ${day.getUTCFullYear()}`;
}

/** Short date of the bank's day with its year, e.g. "Dec 29, 2026" (a due date, a list's day column). */
export function formatShortDate(value: string | Date | null | undefined): string {
  const day = bankDay(value);
  if (!day) return "—";
  return `${shortMonthAndDay(day)}, ${day.getUTCFullYear()}`;
}

/** Short date and New York time with its zone, e.g. "Nov 22, 3:04 PM ET". */
export function formatDateTime(value: string | Date | null | undefined): string {
  const date = instantOf(value);
  if (!date) return "—";
  const wall = newYorkWallClock(date);
  return `${shortMonthAndDay(wall)}, ${clockOf(wall)} ${BANK_ZONE_LABEL}`;
}

/** The same with the year, as PDFs print it, e.g. "Nov 28, 2026, 11:03 PM ET". */
export function formatDateTimeWithYear(value: string | Date | null | undefined): string {
  const date = instantOf(value);
  if (!date) return "—";
  const wall = newYorkWallClock(date);
  return `${shortMonthAndDay(wall)}, ${wall.getUTCFullYear()}, ${clockOf(wall)} ${BANK_ZONE_LABEL}`;
}

/** "Just now", "5 min ago", "3 h ago", else the short date and time. */
export function formatRelativeTime(value: string | Date, now: number = Date.now()): string {
  const date = value instanceof Date ? value : new Date(value);
  const seconds = Math.round((now - date.getTime()) / 1000);
  if (Number.isNaN(seconds)) return "—";
  if (seconds < 60) return "Just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return formatDateTime(date);
}

/** Seconds as m:ss, e.g. 600 → "10:00", 65 → "1:05". */
export function formatCountdown(totalSeconds: number): string {
  const safe = Math.max(0, Math.floor(totalSeconds));
  const minutes = Math.floor(safe / 60);
  const seconds = safe % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/** First letter of first and last name, upper-cased (the analytics top bar). */
export function initials(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || "?";
}

/** Display handle with its `$` prefix. */
export function formatHandle(handle: string): string {
  return `$${handle}`;
}
