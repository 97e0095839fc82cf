import { formatMoney } from "@/contract/money";
import { type MonitoringAlert, RULE_LABELS } from "@/contract/monitoring";
import { LoadErrorNote } from "@/web/components/load-error";
import { Badge } from "@/web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useAlerts } from "@/web/features/monitoring/api/get-alerts";

const when = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

/** The evidence's plain facts (amounts in dollars); lists of events are counted, not dumped. */
function evidenceLine(evidence: MonitoringAlert["evidence"]): string {
  return Object.entries(evidence)
    .filter(([key]) => key !== "event")
    .map(([key, value]) => {
      if (Array.isArray(value)) return `${key}: ${value.length}`;
      if (typeof value === "number" && key.endsWith("Cents"))
        return `${key.slice(0, -5)}: ${formatMoney(value)}`;
      return `${key}: ${String(value)}`;
    })
    .join(" · ");
}

function AlertRow({ alert }: { alert: MonitoringAlert }) {
  const who = alert.customer
    ? `${alert.customer.firstName} ${alert.customer.lastName} (${alert.customer.email})`
    : "Deleted customer";
  return (
    <li className="grid gap-1 border-t border-line px-4 py-3 text-sm first:border-t-0">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-ink">{RULE_LABELS[alert.rule]}</span>
        {alert.blocking ? (
          <Badge tone="negative">Holds money out</Badge>
        ) : (
          <Badge tone="pending">Review</Badge>
        )}
        <span className="tabular-nums text-ink-muted">score {alert.score.toFixed(2)}</span>
      </div>
      <span className="break-all text-ink">{who}</span>
      <span className="break-all text-ink-muted">{evidenceLine(alert.evidence)}</span>
      <span className="text-ink-muted">
        {when(alert.createdAt)} · on a {alert.eventKind} ·{" "}
        <a className="underline" href={`/admin/monitoring?case=${alert.caseId}`}>
          this case's alerts
        </a>
      </span>
    </li>
  );
}

/** Transaction-monitoring alerts, newest first; with a case, only that case's. */
export function AlertsCard({ caseId }: { caseId: string | null }) {
  const alerts = useAlerts(caseId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{caseId ? "Alerts on this case" : "Monitoring alerts"}</CardTitle>
        <CardDescription>
          Patterns the monitoring rules saw in money events, with the evidence each rule used. Alerts join the
          customer's compliance case.
        </CardDescription>
      </CardHeader>
      <CardContent className="p-0">
        {alerts.isPending ? (
          <Skeleton className="m-4 h-24" />
        ) : alerts.isError ? (
          <LoadErrorNote what="the alerts" onRetry={() => alerts.refetch()} />
        ) : alerts.data.items.length === 0 ? (
          <p className="px-4 py-6 text-sm text-ink-muted">No alerts.</p>
        ) : (
          <ul aria-label="Alerts">
            {alerts.data.items.map((a) => (
              <AlertRow key={a.id} alert={a} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
