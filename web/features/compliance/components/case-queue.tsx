import { useState } from "react";
import { Link } from "wouter";
import { LoadErrorNote } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useCases } from "@/web/features/compliance/api/compliance-queries";
import { CaseStatusBadge, DECISION_LABELS } from "@/web/features/compliance/components/case-status-badge";
import { ReportClock } from "@/web/features/compliance/components/report-clock";
import { formatShortDate } from "@/web/lib/format";

// The bank's day (New York), as the SAR PDF prints it (docs/architecture.md "Design notes").
const when = (iso: string) => formatShortDate(iso);

/** The cases hits opened: open ones by default, each with its report clock; each links to its page. */
export function CaseQueue() {
  const [status, setStatus] = useState<"open" | "all">("open");
  const cases = useCases(status);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>Cases</CardTitle>
          <CardDescription>
            Each case groups a customer's hits and alerts until it is decided; a hit after that opens a new
            case, so a customer can have several. While a case holds, the customer's transfers stay held and
            "under review". A report is due 30 days after first detection.
          </CardDescription>
        </div>
        <fieldset className="flex gap-1" aria-label="Which cases">
          {(["open", "all"] as const).map((s) => (
            <Button
              key={s}
              size="sm"
              variant={status === s ? "primary" : "ghost"}
              aria-pressed={status === s}
              onClick={() => setStatus(s)}
            >
              {s === "open" ? "Open" : "All"}
            </Button>
          ))}
        </fieldset>
      </CardHeader>
      <CardContent>
        {cases.isPending ? (
          <Skeleton className="h-24" />
        ) : cases.isError ? (
          <LoadErrorNote what="the cases" onRetry={() => cases.refetch()} />
        ) : cases.data.items.length === 0 ? (
          <p className="text-sm text-ink-muted">{status === "open" ? "No open cases." : "No cases yet."}</p>
        ) : (
          <ul className="divide-y divide-line rounded-lg border border-line">
            {cases.data.items.map((c) => (
              <li key={c.id}>
                <Link
                  href={`/admin/compliance/cases/${c.id}`}
                  className="flex w-full flex-wrap items-center justify-between gap-2 px-4 py-3 text-left hover:bg-canvas focus-visible:outline-2 focus-visible:outline-brand-500"
                >
                  <span className="grid min-w-0 gap-0.5">
                    <span className="font-medium text-ink">
                      {c.customer ? `${c.customer.firstName} ${c.customer.lastName}` : "Deleted customer"}
                    </span>
                    <span className="truncate text-xs text-ink-muted">{c.customer?.email}</span>
                  </span>
                  <span className="flex flex-wrap items-center gap-2 text-sm tabular-nums text-ink-muted">
                    <span>
                      {c.hitCount} {c.hitCount === 1 ? "hit" : "hits"} · {c.alertCount}{" "}
                      {c.alertCount === 1 ? "alert" : "alerts"} · {c.heldTransfers} held · opened{" "}
                      {when(c.openedAt)}
                      {c.assignee ? ` · ${c.assignee.email}` : " · unassigned"}
                    </span>
                    {c.pendingDecision ? (
                      <span className="text-xs text-ink">
                        Awaiting approval: {DECISION_LABELS[c.pendingDecision]}
                      </span>
                    ) : null}
                    <ReportClock dueAt={c.reportDueAt} status={c.status} />
                    <CaseStatusBadge status={c.status} />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
