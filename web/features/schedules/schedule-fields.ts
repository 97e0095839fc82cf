import { parseMoney } from "@/contract/money";
import { SCHEDULE_MESSAGES } from "@/contract/schedules";

/** The create and edit forms' fields that can hold an error. */
export type ScheduleField = "recipient" | "amount" | "start" | "end";
export type ScheduleErrors = Partial<Record<ScheduleField, string>>;

/** Today in New York as YYYY-MM-DD: the earliest first date the server accepts. */
export function newYorkToday(): string {
  return new Date().toLocaleDateString("en-CA", { timeZone: "America/New_York" });
}

/** The field a server refusal is about, read from its message (the form shows it there). */
export function fieldOfMessage(message: string): ScheduleField {
  if (message.startsWith("The end date")) return "end";
  if (message.includes("date")) return "start";
  if (message.startsWith("Recipient")) return "recipient";
  return "amount";
}

/** What the form can tell before sending: an amount, a first date, an end on or after it. */
export function checkScheduleFields(fields: {
  amount: string;
  startOn: string;
  endOn: string;
}): ScheduleErrors {
  const found: ScheduleErrors = {};
  const cents = parseMoney(fields.amount);
  if (cents === null) found.amount = SCHEDULE_MESSAGES.amountInvalid;
  else if (cents <= 0) found.amount = SCHEDULE_MESSAGES.amountPositive;
  if (!fields.startOn) found.start = SCHEDULE_MESSAGES.dateInvalid;
  if (fields.endOn && fields.startOn && fields.endOn < fields.startOn)
    found.end = SCHEDULE_MESSAGES.endBeforeStart;
  return found;
}

/** "12.34" for 1234 cents: the amount as the form shows it for editing. */
export function centsToField(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
