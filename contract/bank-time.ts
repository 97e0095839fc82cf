// One rule for every time a customer or staff member reads (docs/architecture.md, Design notes): New York time,
// the bank's day, with the zone written "ET", in PDFs, e-mails, API texts and the screens that show them.
// web/lib/format.ts writes the same for the web's own lists without Intl (page weight); a test compares the two.
const NEW_YORK = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  dateStyle: "medium",
  timeStyle: "short",
});

/** An instant as the bank writes it, e.g. "Nov 28, 2026, 11:03 PM ET", whatever the machine's or browser's zone. */
export function formatBankTime(at: Date | string): string {
  // ICU may put a narrow no-break space before AM/PM; a plain space reads (and searches) the same everywhere.
  return `${NEW_YORK.format(typeof at === "string" ? new Date(at) : at).replace(/\u202f/g, " ")} ET`;
}
