import { CheckCircle2, Circle, XCircle } from "lucide-react";
import type { TransferTimelineStep } from "@/contract/transfers";
import { cn } from "@/web/lib/cn";
import { formatDateTime } from "@/web/lib/format";

const LABELS: Record<TransferTimelineStep["status"], string> = {
  requested: "Requested",
  processing: "Processing",
  completed: "Completed",
  cancelled: "Cancelled",
  failed: "Failed",
  blocked: "Not sent",
};

/**
 * Requested → processing → completed / cancelled / failed, each with its time once reached, in the status badge's
 * words: the step staff approved was ticked "Under review" beside a "Processing" badge.
 */
export function TransferTimeline({ steps }: { steps: TransferTimelineStep[] }) {
  return (
    <ol className="grid gap-0" aria-label="Status">
      {steps.map((step, index) => {
        const isDone = step.at !== null;
        const isBad =
          isDone && (step.status === "cancelled" || step.status === "failed" || step.status === "blocked");
        const Icon = !isDone ? Circle : isBad ? XCircle : CheckCircle2;
        return (
          <li key={step.status} className="relative flex gap-3 pb-5 last:pb-0">
            {index < steps.length - 1 ? (
              <span aria-hidden className="absolute top-6 bottom-0 left-[9px] w-px bg-line" />
            ) : null}
            <Icon
              aria-hidden
              className={cn(
                "mt-0.5 size-5 shrink-0",
                !isDone ? "text-ink-subtle" : isBad ? "text-negative" : "text-positive",
              )}
            />
            <div className="grid gap-0.5">
              <p className={cn("text-sm font-medium", isDone ? "text-ink" : "text-ink-muted")}>
                {LABELS[step.status]}
              </p>
              <p className="text-xs text-ink-muted">
                {isDone ? <time dateTime={step.at ?? undefined}>{formatDateTime(step.at)}</time> : "Not yet"}
              </p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
