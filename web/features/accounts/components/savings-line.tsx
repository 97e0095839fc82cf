import { ChevronRight, PiggyBank } from "lucide-react";
import { Link } from "wouter";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useSavings } from "@/web/features/savings/api/savings";

/** Under checking's figures, ruled off from them as they are from the total. */
const FRAME = "border-t border-line pt-3 @xl:max-w-md";
const ROW = "-mx-2 flex min-h-14 items-center gap-3 rounded-lg px-2 py-2";
const LINK = `${ROW} transition-colors hover:bg-brand-50/60`;

function Icon() {
  return (
    <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
      <PiggyBank className="size-5" aria-hidden />
    </span>
  );
}

/**
 * The dashboard's second account (docs/banking.md "Savings"): the savings balance and its rate, or the offer to open
 * savings. Nothing to offer once checking is closed. The rate is the server's text ("2.50%"), as the savings
 * page shows it. Its answer comes inside a signed-in first load's HTML (DASHBOARD_FIRST_READS), so the server
 * draws it too.
 */
export function SavingsLine({ canOpen = true }: { canOpen?: boolean }) {
  const savings = useSavings();
  const line = savingsLine(savings, canOpen);
  return line ? <div className={FRAME}>{line}</div> : null;
}

function savingsLine(savings: ReturnType<typeof useSavings>, canOpen: boolean) {
  if (savings.isPending)
    return (
      <div className={ROW} aria-hidden>
        <Skeleton className="size-9 rounded-full" />
        <div className="grid flex-1 gap-1">
          <Skeleton className="h-3 w-16" />
          <Skeleton className="h-5 w-24" />
        </div>
      </div>
    );
  if (savings.isError)
    return (
      <div className={ROW}>
        <Icon />
        <p className="flex-1 text-sm text-ink-muted">We couldn't load your savings.</p>
        <Button variant="ghost" size="sm" onClick={() => void savings.refetch()}>
          Try again
        </Button>
      </div>
    );
  const { rate, account } = savings.data;
  // A closed checking account (decision 059) is offered nothing new.
  if (!account && !canOpen) return null;
  if (!account)
    return (
      <Link href="/savings" className={LINK}>
        <Icon />
        <span className="flex-1 text-sm font-medium text-brand-700">Open savings — earn {rate.apy} APY</span>
        <ChevronRight className="size-4 shrink-0 text-ink-subtle" aria-hidden />
      </Link>
    );
  return (
    <Link href="/savings" className={LINK}>
      <Icon />
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="text-xs text-ink-muted">Savings</span>
        <span className="text-lg font-semibold text-ink tabular-nums">{account.balance.amount}</span>
      </span>
      <Badge tone="brand">{rate.apy} APY</Badge>
      <ChevronRight className="size-4 shrink-0 text-ink-subtle" aria-hidden />
    </Link>
  );
}
