import { ChevronRight } from "lucide-react";
import { Link } from "wouter";
import { LoadError } from "@/web/components/load-error";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { formatRunDay, useUpcomingRuns } from "@/web/features/schedules/api/find-schedules";

/** The dashboard's "Coming up": the next scheduled transfers, soonest first (decision 036). */
export function ComingUpCard() {
  const upcoming = useUpcomingRuns();
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-3">
        <CardTitle>Coming up</CardTitle>
        <Link
          href="/schedules"
          className="inline-flex items-center gap-1 text-sm font-medium text-brand-600 underline-offset-4 hover:underline"
        >
          Scheduled transfers
          <ChevronRight className="size-4" aria-hidden />
        </Link>
      </CardHeader>
      <CardContent>
        {upcoming.isError ? (
          <LoadError what="your scheduled transfers" onRetry={() => void upcoming.refetch()} />
        ) : !upcoming.data ? (
          <Skeleton className="h-12 w-full" aria-hidden />
        ) : upcoming.data.items.length === 0 ? (
          <p className="text-sm text-ink-muted">No scheduled transfers.</p>
        ) : (
          <ul className="divide-y divide-line" aria-label="Coming up">
            {upcoming.data.items.map((run) => (
              <li
                key={`${run.scheduleId}-${run.runOn}`}
                className="flex items-baseline justify-between gap-3 py-2"
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium text-ink">{run.recipientName}</span>
                  <span className="block text-sm text-ink-muted">{formatRunDay(run.runOn)}</span>
                </span>
                <span className="shrink-0 tabular-nums text-ink">−{run.formattedAmount}</span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
