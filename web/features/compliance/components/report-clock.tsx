import { Badge } from "@/web/components/ui/badge";
import { formatShortDate } from "@/web/lib/format";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The 30-day report clock of an open case: days left until the report is due (from first detection), amber in
 * the last week, red once overdue. Decided cases show none.
 */
export function ReportClock({
  dueAt,
  status,
  now = Date.now(),
}: {
  dueAt: string;
  status: string;
  now?: number;
}) {
  if (status !== "open") return null;
  const left = new Date(dueAt).getTime() - now;
  const days = Math.ceil(Math.abs(left) / DAY_MS);
  const text =
    left < 0
      ? `Report overdue by ${days} ${days === 1 ? "day" : "days"}`
      : `Report due in ${days} ${days === 1 ? "day" : "days"}`;
  // The bank's day (New York), the day the SAR PDF prints (docs/architecture.md "Design notes").
  const due = formatShortDate(dueAt);
  return (
    <Badge tone={left < 0 ? "negative" : left < 7 * DAY_MS ? "pending" : "neutral"} title={`Due ${due}`}>
      <span>
        {text}
        <span className="sr-only"> (due {due})</span>
      </span>
    </Badge>
  );
}
