import { CheckCircle2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link } from "wouter";
import { transferFigures } from "@/contract/transfer-figures";
import { type TransferRequest, transferReference } from "@/contract/transfers";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { cn } from "@/web/lib/cn";

/**
 * The success screen. It stays until the customer leaves it: the spec's redirect after 2 s took keyboard and
 * screen-reader users away before "View receipt" could be reached (docs/architecture.md "Design notes").
 * Focus moves to its heading; the page's live region says the result.
 */
export function TransferSuccess({ transfer }: { transfer: TransferRequest }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <Card className="mx-auto grid w-full max-w-lg justify-items-center gap-4 px-6 py-10 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-positive-soft text-positive">
        <CheckCircle2 className="size-7" aria-hidden />
      </span>
      <div className="grid gap-1">
        <h1
          ref={heading}
          tabIndex={-1}
          className="text-xl font-semibold tracking-tight text-ink focus-visible:outline-none"
        >
          Transfer Submitted
        </h1>
        <p className="text-sm text-ink-muted">Your transfer to {transfer.recipientName} is pending review.</p>
      </div>
      {/* First in the tab order after the heading: the receipt is one key press away. */}
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
