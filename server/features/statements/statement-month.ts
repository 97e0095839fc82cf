import { STATEMENT_MESSAGES } from "@/contract/statements";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { AppError } from "@/server/lib/errors";

const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

export interface StatementPeriod {
  month: string;
  /** The first instant of the month in America/New_York. */
  start: Date;
  /** The first instant of the next month in America/New_York. */
  end: Date;
}

const NEW_YORK_HOUR = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  hour: "numeric",
  hourCycle: "h23",
});

/** Midnight in New York on the first of a month: 05:00 UTC in winter, 04:00 UTC under daylight time. */
function newYorkMonthStart(year: number, month: number): Date {
  const winter = new Date(Date.UTC(year, month - 1, 1, 5));
  return Number(NEW_YORK_HOUR.format(winter)) === 0 ? winter : new Date(Date.UTC(year, month - 1, 1, 4));
}

/** "2026-11" → its New York bounds; anything else is a 400. */
export function parseStatementMonth(month: string): StatementPeriod {
  const match = MONTH_PATTERN.exec(month);
  if (!match) throw new AppError("VALIDATION", STATEMENT_MESSAGES.invalidMonth);
  const year = Number(match[1]);
  const number = Number(match[2]);
  return {
    month,
    start: newYorkMonthStart(year, number),
    end: number === 12 ? newYorkMonthStart(year + 1, 1) : newYorkMonthStart(year, number + 1),
  };
}

/** The New York month ("2026-11") an instant falls in. */
export function monthOf(instant: Date): string {
  return limitDayOf(instant).slice(0, 7);
}

/** Every month from the one the account opened in through the current one, newest first. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [year, month] = last.split("-").map(Number) as [number, number];
  while (`${year}-${String(month).padStart(2, "0")}` >= first) {
    months.push(`${year}-${String(month).padStart(2, "0")}`);
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
  return months;
}
