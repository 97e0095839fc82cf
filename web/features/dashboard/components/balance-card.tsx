import { AlertCircle, CreditCard } from "lucide-react";
import type { DashboardContent } from "@/contract/dashboard-content";
import { formatMoney } from "@/contract/money";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useAccountSummary } from "@/web/lib/account-summary";

type Labels = Pick<
  DashboardContent,
  "balanceLabel" | "availableLabel" | "pendingLabel" | "cardName" | "cardNumber"
>;

function CardVisual({ cardName, cardNumber }: Pick<Labels, "cardName" | "cardNumber">) {
  return (
    <div className="relative flex min-h-36 w-full flex-col justify-between overflow-hidden rounded-xl bg-gradient-to-br from-brand-700 to-brand-900 p-5 text-white sm:max-w-72">
      <div className="flex items-start justify-between gap-3">
        <CreditCard className="size-6 text-brand-100" aria-hidden />
        <Badge className="bg-white/15 text-white">Cards Coming Soon</Badge>
      </div>
      <div className="grid gap-1">
        <p className="font-mono text-sm tracking-widest text-brand-100 tabular-nums">{cardNumber}</p>
        <p className="truncate text-sm font-semibold">{cardName}</p>
      </div>
    </div>
  );
}

/** Spec §2: total, available and pending balances, and the card that is coming soon. Labels are per-user content. */
export function BalanceCard({ labels }: { labels: Labels }) {
  const summary = useAccountSummary();
  const placeholder = summary.isError ? "—" : <Skeleton className="h-6 w-24" />;

  return (
    <Card className="grid gap-6 p-6 sm:grid-cols-[1fr_auto] sm:items-center">
      <div className="grid gap-5">
        <div className="grid gap-1">
          <p className="text-sm font-medium text-ink-muted">{labels.balanceLabel}</p>
          {summary.isPending ? (
            <Skeleton className="h-10 w-48" />
          ) : summary.isError ? (
            <div className="grid justify-items-start gap-2">
              <p className="flex items-center gap-2 text-sm text-negative" role="alert">
                <AlertCircle className="size-4 shrink-0" aria-hidden />
                We couldn't load your balance.
              </p>
              <Button variant="secondary" size="sm" onClick={() => summary.refetch()}>
                Try again
              </Button>
            </div>
          ) : (
            <p className="text-4xl font-semibold tracking-tight text-ink tabular-nums">
              {formatMoney(summary.data.balanceCents)}
            </p>
          )}
        </div>
        <dl className="grid grid-cols-2 gap-4 border-t border-line pt-4 sm:max-w-md">
          <div className="grid gap-0.5">
            <dt className="text-xs text-ink-muted">{labels.availableLabel}</dt>
            <dd className="text-lg font-semibold text-ink tabular-nums">
              {summary.data ? formatMoney(summary.data.availableCents) : placeholder}
            </dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="text-xs text-ink-muted">{labels.pendingLabel}</dt>
            <dd className="text-lg font-semibold tabular-nums">
              {summary.data ? (
                <span className={summary.data.pendingCents > 0 ? "text-pending" : "text-ink"}>
                  {formatMoney(summary.data.pendingCents)}
                </span>
              ) : (
                placeholder
              )}
            </dd>
          </div>
        </dl>
      </div>
      <CardVisual cardName={labels.cardName} cardNumber={labels.cardNumber} />
    </Card>
  );
}
