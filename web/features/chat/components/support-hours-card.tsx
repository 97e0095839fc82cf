import { Clock } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";

/** The support hours, Eastern time. */
const HOURS = [
  { days: "Monday - Friday", hours: "9:00 AM - 6:00 PM" },
  { days: "Saturday", hours: "10:00 AM - 4:00 PM" },
  { days: "Sunday", hours: "Closed" },
] as const;

export function SupportHoursCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Clock className="size-4 text-brand-700" aria-hidden />
          Support Hours
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-2 text-sm">
          {HOURS.map(({ days, hours }) => (
            <div key={days} className="flex items-center justify-between gap-3">
              <dt className="text-ink-muted">{days}</dt>
              <dd className="font-medium text-ink tabular-nums">{hours}</dd>
            </div>
          ))}
        </dl>
        <p className="rounded-lg bg-brand-50 px-3 py-2 text-xs text-brand-800">
          All times EST. Average response time: 5-15 minutes during business hours.
        </p>
      </CardContent>
    </Card>
  );
}
