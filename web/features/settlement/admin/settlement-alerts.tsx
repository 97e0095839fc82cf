import { AlertTriangle, Coins } from "lucide-react";
import type { SettlementAlert, SettlementHealth } from "@/contract/settlement";
import { ListHeader } from "@/web/components/admin/list-states";
import { Card, CardContent } from "@/web/components/ui/card";

/** "45 s", "12 min", "3 h", "2 d". */
function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** What the payout worker cannot settle alone (decision 058): a fee above the ceiling, a nonce gone astray, a long wait. */
export function SettlementAlerts({ alerts }: { alerts: SettlementAlert[] }) {
  if (alerts.length === 0) return null;
  return (
    <section aria-label="Settlement alerts" className="grid gap-2">
      {alerts.map((a) => (
        <p
          key={a.kind}
          role="alert"
          className="flex items-start gap-2 rounded-lg border border-line bg-negative-soft p-3 text-sm text-negative"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span className="min-w-0">{a.message}</span>
        </p>
      ))}
    </section>
  );
}

function Wait({ label, seconds }: { label: string; seconds: number | null }) {
  return (
    <div className="grid min-w-0 gap-1 rounded-lg border border-line p-3">
      <dt className="text-xs text-ink-muted">{label}</dt>
      <dd className="text-base font-semibold text-ink tabular-nums">
        {seconds === null ? "none" : formatWait(seconds)}
      </dd>
    </div>
  );
}

/** The fee market the worker last saw against the ceiling, and how long the oldest items have waited. */
export function FeesCard({ fees }: { fees: SettlementHealth }) {
  return (
    <Card>
      <ListHeader
        title="Fees and waiting"
        description={
          fees.ceiling
            ? `Payouts pause rather than pay more than ${fees.ceiling} per gas (CHAIN_MAX_FEE_GWEI)`
            : "No fee ceiling: set CHAIN_MAX_FEE_GWEI to pause payouts rather than overpay"
        }
      />
      <CardContent>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          <div className="col-span-2 grid min-w-0 gap-1 rounded-lg border border-line p-3 lg:col-span-1">
            <dt className="flex items-center gap-1.5 text-xs text-ink-muted">
              <Coins className="size-3.5" aria-hidden />
              Fee the chain asks
            </dt>
            <dd className="text-base font-semibold text-ink tabular-nums">
              {fees.marketMaxFee ?? "unknown"}
            </dd>
            <dd className="text-xs text-ink-muted tabular-nums">
              base fee {fees.baseFee ?? "unknown"}
              {fees.ceiling ? ` · ceiling ${fees.ceiling}` : ""}
            </dd>
          </div>
          <Wait label="Oldest payout not sent" seconds={fees.oldestUnsentPayoutSeconds} />
          <Wait label="Oldest payout not mined" seconds={fees.oldestStuckPayoutSeconds} />
          <Wait label="Oldest pending deposit" seconds={fees.oldestPendingDepositSeconds} />
          <div className="grid min-w-0 gap-1 rounded-lg border border-line p-3">
            <dt className="text-xs text-ink-muted">Last read by the payout worker</dt>
            <dd className="text-base font-semibold text-ink tabular-nums">
              {fees.observedAt ? new Date(fees.observedAt).toLocaleTimeString("en-US") : "not yet"}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
