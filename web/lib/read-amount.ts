import { parseMoney } from "@/contract/money";
import { TRANSFER_MESSAGES } from "@/contract/transfers";

/** What an amount field holds, read as typed: nothing yet, an amount in cents above $0, or the spec's refusal. */
export type AmountReading =
  | { cents: null; error: null }
  | { cents: number; error: null }
  | { cents: null; error: string };

/**
 * Reads the text of a money field without changing it: "-5" is refused as not above $0 and "1e3" or
 * "1,000.001" as not a dollar amount, never turned into "5" or "13". The one parseMoney decides what is a number.
 */
export function readAmount(text: string): AmountReading {
  if (text.trim() === "") return { cents: null, error: null };
  const cents = parseMoney(text);
  if (cents === null) return { cents: null, error: TRANSFER_MESSAGES.amountInvalid };
  if (cents <= 0) return { cents: null, error: TRANSFER_MESSAGES.amountPositive };
  return { cents, error: null };
}
