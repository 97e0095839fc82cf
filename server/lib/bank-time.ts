// One rule for every time a customer or staff member reads (issue 46): New York time, the bank's day, with the
// zone written "ET" — the web's formatters (web/lib/format.ts) write the same.
const NEW_YORK = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  dateStyle: "medium",
  timeStyle: "short",
});

/** An instant as the bank writes it in PDFs, e-mails and API texts, e.g. "Nov 28, 2026, 11:03 PM ET". */
export function formatBankTime(instant: Date): string {
  // ICU may put a narrow no-break space before AM/PM; a plain space reads (and searches) the same everywhere.
  return `${NEW_YORK.format(instant).replace(/\u202f/g, " ")} ET`;
}
