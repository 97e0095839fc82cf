const NEW_YORK_DAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/New_York",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The America/New_York calendar day ("2026-11-22") an instant falls on: the daily withdrawal limit's bucket. */
export function limitDayOf(instant: Date): string {
  return NEW_YORK_DAY.format(instant);
}
