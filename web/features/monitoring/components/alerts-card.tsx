import { Link } from "wouter";
import { type MonitoringAlert, RULE_LABELS } from "@/contract/monitoring";
import { AlertEvidence } from "@/web/components/admin/alert-evidence";
import { LoadErrorNote } from "@/web/components/load-error";
import { Badge } from "@/web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useAlerts } from "@/web/features/monitoring/api/get-alerts";
import { formatDateTimeWithYear } from "@/web/lib/format";

// New York time with its zone, one rule for every time staff read (docs/architecture.md "Design notes").
const when = (iso: string) => formatDateTimeWithYear(iso);

const EVENT_KINDS: Record<MonitoringAlert["eventKind"], string> = {
  credit: "a credit",
  deposit: "a USDC deposit",
  transfer: "a transfer",
  tag_out: "a payment by $tag",
  tag_in: "a payment received by $tag",
};

/** One alert: the rule, whose money, what the rule saw (the SAR's words) and the way to the customer's case. */
function AlertRow({ alert }: { alert: MonitoringAlert }) {
  const who = alert.customer ? `${alert.customer.firstName} ${alert.customer.lastName}` : "Deleted customer";
  return (
    <li className="grid gap-1.5 border-t border-line px-6 py-4 text-sm first:border-t-0">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <span className="font-medium text-ink">{RULE_LABELS[alert.rule]}</span>
          {alert.blocking ? (
            <Badge tone="negative">Holds money out</Badge>
          ) : (
            <Badge tone="pending">Review</Badge>
          )}
        </div>
        <span className="tabular-nums text-xs text-ink-muted">Score {alert.score.toFixed(2)}</span>
      </div>
      <p className="min-w-0 text-ink">
        {who}
        {alert.customer ? (
          <span className="block break-all text-ink-muted sm:inline">
            <span className="hidden sm:inline"> · </span>
            {alert.customer.email}
          </span>
        ) : null}
      </p>
      <div className="rounded-lg bg-canvas px-3 py-2">
        <AlertEvidence evidence={alert.evidence} />
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-ink-muted">
        <span>
          {when(alert.createdAt)} · on {EVENT_KINDS[alert.eventKind]}
        </span>
        <Link
          className="font-medium text-brand-700 underline-offset-4 hover:underline"
          href={`/admin/compliance/cases/${alert.caseId}`}
        >
          Open {alert.customer ? `${who}'s` : "the"} case
        </Link>
      </div>
    </li>
  );
}

/** Transaction-monitoring alerts, newest first; with a case, only that case's. */
export function AlertsCard({ caseId }: { caseId: string | null }) {
  const alerts = useAlerts(caseId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{caseId ? "Alerts on this case" : "Recent alerts"}</CardTitle>
        <CardDescription>
          Patterns the monitoring rules saw in money events, newest first, with the evidence each rule used.
          Each alert joins its customer's compliance case.
        </CardDescription>
        {caseId ? (
          <Link
            className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
            href={`/admin/compliance/cases/${caseId}`}
          >
            Open the case
          </Link>
        ) : null}
      </CardHeader>
      <CardContent className="p-0">
        {alerts.isPending ? (
          <Skeleton className="mx-6 mb-6 h-24" />
        ) : alerts.isError ? (
          <LoadErrorNote what="the alerts" onRetry={() => alerts.refetch()} />
        ) : alerts.data.items.length === 0 ? (
          <p className="px-6 py-6 text-sm text-ink-muted">
            No alerts. The rules run on every credit, deposit and transfer.
          </p>
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
