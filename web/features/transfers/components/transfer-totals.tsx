import { AlertTriangle } from "lucide-react";
import type { ReactNode } from "react";
import { formatMoney } from "@/contract/money";
import { formatFee, formatRecipientGets } from "@/contract/transfer-figures";
import { DAILY_LIMIT_CENTS, type TransferLimits } from "@/contract/transfers";
import { cn } from "@/web/lib/cn";
import { overLimitMessage } from "@/web/lib/over-limit-message";

function Row({
  label,
  children,
  strong,
  className,
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
  className?: string;
}) {
  return (
    <div className={cn("flex items-baseline justify-between gap-3", className)}>
      <dt className="text-ink-muted">{label}</dt>
      <dd className={strong ? "font-semibold text-ink tabular-nums" : "text-ink tabular-nums"}>{children}</dd>
    </div>
  );
}

/**
 * "$19.75 of $100.00": what can still leave today under the lower of the bank's limit and the customer's own, which
 * is what the server's gate passes.
 */
export function remainingOf(limits: TransferLimits): string {
  return `${limits.effectiveRemainingToday} of ${limits.effectiveDailyLimit}`;
}

/** What the amount being typed comes to: balance, fee, what the recipient gets and what is left today. */
export function TransferTotals({
  availableCents,
  validAmount,
  fee,
  limits,
}: {
  availableCents: number;
  validAmount: number | null;
  fee: number;
  limits: TransferLimits | undefined;
}) {
  return (
    <dl className="grid gap-2 rounded-lg bg-canvas p-4 text-sm" aria-live="polite">
      <Row label="Available balance">{formatMoney(availableCents)}</Row>
      <Row label="Transfer fee (2%)">{validAmount !== null ? formatFee(fee) : "$0.00"}</Row>
      <Row label="Recipient gets" strong>
        {validAmount !== null ? formatRecipientGets(validAmount - fee) : "—"}
      </Row>
      {/* A <dl> may only hold dt/dd groups in divs, so the divider is the row's own border. */}
      <Row label="Remaining today" className="border-t border-line pt-2">
        {limits ? remainingOf(limits) : formatMoney(DAILY_LIMIT_CENTS)}
      </Row>
    </dl>
  );
}

/** The over-limit note, said in the form rather than in a toast that fades. */
export function OverLimitNote({ limits }: { limits: TransferLimits | undefined }) {
  return (
    <div
      role="alert"
      className="grid gap-1 rounded-lg border border-negative/30 bg-negative-soft p-4 text-sm text-negative"
    >
      <p className="flex items-center gap-2 font-semibold">
        <AlertTriangle className="size-4 shrink-0" aria-hidden />
        Daily Withdrawal Limit Exceeded
      </p>
      <p>{overLimitMessage(limits)}</p>
    </div>
  );
}
