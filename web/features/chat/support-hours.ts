/**
 * The support hours in New York time (the card says EST; the clock follows daylight saving, as New York
 * does). The Live Chat badge reads these, so it never says "Online" while the card says closed.
 */
export const SUPPORT_TIME_ZONE = "America/New_York";

/** Opening hours per weekday (0 = Sunday), in minutes after midnight New York time; null = closed. */
const OPEN_MINUTES: readonly ({ from: number; to: number } | null)[] = [
  null,
  { from: 9 * 60, to: 18 * 60 },
  { from: 9 * 60, to: 18 * 60 },
  { from: 9 * 60, to: 18 * 60 },
  { from: 9 * 60, to: 18 * 60 },
  { from: 9 * 60, to: 18 * 60 },
  { from: 10 * 60, to: 16 * 60 },
];

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const PARTS = new Intl.DateTimeFormat("en-US", {
  timeZone: SUPPORT_TIME_ZONE,
  weekday: "short",
  hour: "numeric",
  minute: "numeric",
  hourCycle: "h23",
});

/** Whether a person is on the support desk at `now`. */
export function isSupportOpen(now: Date): boolean {
  const parts = Object.fromEntries(PARTS.formatToParts(now).map((p) => [p.type, p.value]));
  const day = WEEKDAYS.indexOf(parts.weekday ?? "");
  const minutes = Number(parts.hour) * 60 + Number(parts.minute);
  const hours = OPEN_MINUTES[day];
  return hours != null && minutes >= hours.from && minutes < hours.to;
}
