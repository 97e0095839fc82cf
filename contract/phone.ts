// Phone numbers are stored in E.164 (+14155550132) and shown in one format: national for US numbers
// ((415) 555-0132), international for others (+44 20 7946 0958). libphonenumber-js's "min" metadata
// (~30 KB gzip) is imported only by the server and by the screens that show a number, never the first load.
import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js/min";

/** Numbers typed without a country code are read as US numbers. */
export const DEFAULT_PHONE_COUNTRY: CountryCode = "US";

/** The E.164 form of a typed number, or undefined when it is not a valid number. */
export function normalisePhone(typed: string): string | undefined {
  const parsed = parsePhoneNumberFromString(typed.trim(), DEFAULT_PHONE_COUNTRY);
  return parsed?.isValid() ? parsed.number : undefined;
}

/**
 * A stored number for display. Rows written before numbers were normalised hold what was typed: they are
 * read the same way as a new entry, and one that still cannot be read is shown as stored, never hidden.
 */
export function formatPhone(stored: string): string {
  const parsed = parsePhoneNumberFromString(stored.trim(), DEFAULT_PHONE_COUNTRY);
  if (!parsed?.isValid()) return stored;
  return parsed.country === "US" ? parsed.formatNational() : parsed.formatInternational();
}
