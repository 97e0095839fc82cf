import { CheckCircle2 } from "lucide-react";
import { useEffect } from "react";
import { Link, useLocation } from "wouter";
import { transferFigures } from "@/contract/transfer-figures";
import { type TransferRequest, transferReference } from "@/contract/transfers";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { cn } from "@/web/lib/cn";

/** Spec §2/§4: after a transfer the success screen shows, then the dashboard after 2 s. */
export const SUCCESS_REDIRECT_MS = 2_000;

export function TransferSuccess({ transfer }: { transfer: TransferRequest }) {
  const [, navigate] = useLocation();
  useEffect(() => {
    const timer = setTimeout(() => navigate("/dashboard"), SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return (
    <Card
      className="mx-auto grid w-full max-w-lg justify-items-center gap-4 px-6 py-10 text-center"
      role="status"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-positive-soft text-positive">
        <CheckCircle2 className="size-7" aria-hidden />
      </span>
      <div className="grid gap-1">
        <h1 className="text-xl font-semibold tracking-tight text-ink">Transfer Submitted</h1>
        <p className="text-sm text-ink-muted">
          Your transfer to {transfer.recipientName} is pending review. Taking you back to your dashboard…
        </p>
      </div>
      {/* First in the tab order, so the receipt is one key press away before the redirect. */}
      <Button asChild>
        <Link href={`/transfers/${transfer.id}`}>View receipt</Link>
      </Button>
      <dl className="grid w-full gap-2 rounded-lg bg-canvas p-4 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-ink-muted">Reference</dt>
          <dd className="font-mono font-semibold tracking-wider text-ink">
            {transferReference(transfer.id)}
          </dd>
        </div>
        {transferFigures({ amountCents: transfer.amountCents, feeCents: transfer.feeCents }).lines.map(
          (line) => (
            <div
              key={line.label}
              className={cn("flex justify-between gap-3", line.isStrong && "border-t border-line pt-2")}
            >
              <dt className="text-ink-muted">{line.label}</dt>
              <dd className={cn("text-ink tabular-nums", line.isStrong && "font-semibold")}>{line.value}</dd>
            </div>
          ),
        )}
      </dl>
      <Button asChild variant="secondary">
        <Link href="/dashboard">Go to Dashboard</Link>
      </Button>
    </Card>
  );
}
