/**
 * Money is integer cents everywhere (DESIGN: Money). These are the only two functions that turn
 * text into cents and cents into text; both are exact (no floating-point arithmetic on amounts).
 */

/** Largest amount accepted anywhere: $10,000,000,000.00 — far above any real balance, far below 2^53 cents. */
export const MAX_CENTS = 1_000_000_000_000;

const MONEY_PATTERN = /^(-)?\$?\s*(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d{1,2}))?$/;

/**
 * Parses "$1,000.00", "1000", "12.5", "-$3.10" or a number of dollars (at most 2 decimals) into cents.
 * Returns null for anything else (more than 2 decimals, letters, NaN, beyond MAX_CENTS).
 */
export function parseMoney(input: string | number): number | null {
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return null;
    // A JS number like 0.1 prints as "0.1"; anything with more than 2 decimals is refused below.
    text = String(input);
    if (/e/i.test(text)) return null;
  } else {
    text = input.trim();
  }
  const match = MONEY_PATTERN.exec(text);
  if (!match || (match[2] === undefined && match[3] === undefined)) return null;
  const [, minus, whole = "0", fraction = ""] = match;
  const dollars = whole.replaceAll(",", "");
  if (dollars.length > 13) return null;
  const cents = Number(dollars) * 100 + Number(fraction.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return null;
  return minus ? -cents : cents;
}

/** Guard at the boundaries: an amount in cents must be a safe integer. */
export function assertCents(value: number): number {
  if (!Number.isSafeInteger(value)) throw new TypeError(`Not an integer amount of cents: ${value}`);
  return value;
}

/** Formats cents as "$1,234.56" (negative as "-$1,234.56"). Accepts bigint from the database. */
export function formatMoney(cents: number | bigint): string {
  const value = typeof cents === "bigint" ? cents : BigInt(assertCents(cents));
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const dollars = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const rest = (abs % 100n).toString().padStart(2, "0");
  return `${negative ? "-" : ""}$${dollars}.${rest}`;
}

/** Cents as a plain decimal string without symbol or separators, e.g. 123456 → "1234.56" (CSV, inputs). */
export function centsToDecimal(cents: number | bigint): string {
  return formatMoney(cents).replace("$", "").replaceAll(",", "");
}
