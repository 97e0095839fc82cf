import { type FormEvent, useId, useState } from "react";
import type { ReconciliationItem, ReconciliationReport } from "@/contract/settlement";
import { canUse } from "@/contract/staff-capabilities";
import { ListError, ListSkeleton } from "@/web/components/admin/list-states";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { useAcknowledgeDifference } from "@/web/features/settlement/admin/api/acknowledge-difference";
import { useReconciliation } from "@/web/features/settlement/admin/api/get-reconciliation";
import { TxLink } from "@/web/features/settlement/admin/tx-link";
import { ApiError } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { formatDateTime } from "@/web/lib/format";
import { isStepUpCancelled } from "@/web/lib/step-up";

const AREA_LABELS: Record<ReconciliationItem["area"], string> = {
  hot_wallet: "Hot wallet",
  payouts: "Payouts",
  deposits: "Deposits",
};

function AcknowledgeForm({ reportId, item }: { reportId: string; item: ReconciliationItem }) {
  const [reason, setReason] = useState("");
  const acknowledge = useAcknowledgeDifference();
  const id = useId();
  const failed =
    acknowledge.error && !isStepUpCancelled(acknowledge.error)
      ? acknowledge.error instanceof ApiError
        ? acknowledge.error.message
        : "Could not acknowledge it. Try again."
      : null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    acknowledge.mutate({ reportId, itemId: item.id, reason });
  };
  return (
    <form onSubmit={onSubmit} className="grid gap-1.5">
      <span className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-reason`} className="sr-only">
          Why this difference is acknowledged
        </label>
        <Input
          id={`${id}-reason`}
          value={reason}
          required
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
          placeholder="Why it is explained (e.g. treasury sweep, ticket FIN-12)"
          className="h-8 min-w-0 flex-1 sm:max-w-sm"
        />
        <Button
          size="sm"
          variant="secondary"
          type="submit"
          disabled={acknowledge.isPending || !reason.trim()}
        >
          {acknowledge.isPending ? "Acknowledging…" : "Acknowledge"}
        </Button>
      </span>
      {failed ? (
        <span role="alert" className="text-xs text-negative">
          {failed}
        </span>
      ) : null}
    </form>
  );
}

/**
 * A report's differences, each new or still open since the block it was first seen at (decision 057) and
 * acknowledged (who, when, why) or with the form to acknowledge it, then those the run found resolved.
 */
function DifferenceList({ report }: { report: ReconciliationReport }) {
  const { data: me } = useCurrentUser();
  const detail = useReconciliation(report.id, true);
  const mayAcknowledge = canUse(me?.staffRoles ?? [], "acknowledgeDifference");
  if (detail.isPending) return <ListSkeleton label="Loading the report's differences" />;
  if (detail.isError) return <ListError what="the report's differences" onRetry={() => detail.refetch()} />;
  // Open differences first (new ones before those still open from earlier runs), then those this run resolved.
  const differences = detail.data.items.filter((i) => i.outcome !== "awaiting");
  return (
    <ul
      className="grid gap-2"
      aria-label={`Differences in the report from ${formatDateTime(report.startedAt)}`}
    >
      {differences.map((item) => (
        <li
          key={item.id}
          className="grid min-w-0 gap-1.5 rounded-lg border border-line p-3 text-xs [overflow-wrap:anywhere]"
        >
          <span className="flex flex-wrap items-center gap-2">
            <Badge
              tone={item.outcome === "resolved" ? "positive" : item.acknowledgment ? "neutral" : "negative"}
            >
              {item.outcome === "resolved"
                ? "resolved"
                : item.acknowledgment
                  ? "acknowledged"
                  : item.state === "open"
                    ? "still open"
                    : item.state === "new"
                      ? "new difference"
                      : "difference"}
            </Badge>
            <span className="font-medium text-ink">{AREA_LABELS[item.area]}</span>
            <code className="font-mono text-ink-muted">{item.kind}</code>
            <TxLink hash={item.txHash} href={item.explorerUrl} />
          </span>
          <span className="text-ink">{item.detail}</span>
          <span className="text-ink-muted tabular-nums">
            Chain {item.chainUsdc ?? "—"} USDC · ledger {item.ledgerUsdc ?? "—"} USDC
            {item.firstSeenBlock === null ? null : ` · first seen at block ${item.firstSeenBlock}`}
            {item.resolvedBlock === null ? null : ` · resolved at block ${item.resolvedBlock}`}
          </span>
          {item.outcome === "resolved" ? null : item.acknowledgment ? (
            <span className="text-ink-muted">
              Acknowledged by {item.acknowledgment.by ?? "a deleted staff member"} on{" "}
              {formatDateTime(item.acknowledgment.at)}: {item.acknowledgment.reason}
            </span>
          ) : mayAcknowledge ? (
            <AcknowledgeForm reportId={report.id} item={item} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** "Show differences" under a report that has any. */
export function ReportDifferences({ report }: { report: ReconciliationReport }) {
  const [open, setOpen] = useState(false);
  if (report.differences === 0 && report.resolved === 0) return null;
  return (
    <div className="grid gap-2 sm:col-span-2">
      <Button
        size="sm"
        variant="ghost"
        className="justify-self-start"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
      >
        {open ? "Hide differences" : "Show differences"}
      </Button>
      {open ? <DifferenceList report={report} /> : null}
    </div>
  );
}
