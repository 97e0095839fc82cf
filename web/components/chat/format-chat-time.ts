import { formatClockTime, formatDateTime } from "@/web/lib/format";

// Customer and staff chats show message times the same way.
const DAY_MS = 24 * 60 * 60 * 1000;

/** Within 24 hours only the time ("3:04 PM"), otherwise short month, day and time ("Nov 20, 3:04 PM"). */
export function formatChatTime(value: string, now: number = Date.now()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return now - date.getTime() < DAY_MS ? formatClockTime(date) : formatDateTime(date);
}
