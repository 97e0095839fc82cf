import { PiggyBank } from "lucide-react";
import { type RefObject, useRef, useState } from "react";
import type { SavingsOverview } from "@/contract/savings";
import { SAVINGS_MESSAGES } from "@/contract/savings-text";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { errorMessage } from "@/web/components/toast-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { Spinner } from "@/web/components/ui/spinner";
import { toast } from "@/web/components/ui/use-toast";
import { useOpenSavings, useSavings } from "@/web/features/savings/api/savings";
import { CloseSavingsCard } from "@/web/features/savings/components/close-savings-card";
import { MoveMoneyForm } from "@/web/features/savings/components/move-money-form";
import { SavingsGoals } from "@/web/features/savings/components/savings-goals";
import { formatRunDay } from "@/web/features/schedules/api/find-schedules";
import { useAccountSummary } from "@/web/lib/account-summary";
import { canSendMoney } from "@/web/lib/send-money-gate";
import { useDocumentTitle } from "@/web/lib/use-document-title";

type OpenAccount = NonNullable<SavingsOverview["account"]>;

/** Why the open button is off: savings moves money to and from checking, so checking must be open first. */
const NEEDS_CHECKING = "Open your checking account first: savings moves money to and from it.";

function PageSkeleton() {
  return (
    <div className="grid gap-6" aria-busy="true">
      <p className="sr-only" role="status">
        Loading your savings
      </p>
      <Skeleton className="h-52 w-full" />
      <Skeleton className="h-72 w-full" />
    </div>
  );
}

/** Not open yet: what savings is, the rate and its variable-rate notice, and the one button. */
function OpenSavings({ apy, onOpened }: { apy: string; onOpened: () => void }) {
  const summary = useAccountSummary();
  const open = useOpenSavings();
  const [error, setError] = useState<string | null>(null);
  const isBlocked = summary.data !== undefined && !canSendMoney(summary.data);
  const onOpen = () => {
    setError(null);
    open.mutate(undefined, {
      onSuccess: () => {
        toast({ title: SAVINGS_MESSAGES.opened, description: `Your savings earn ${apy} APY.` });
        onOpened();
      },
      onError: (failure) => setError(errorMessage(failure, "Savings was not opened. Please try again.")),
    });
  };
  const reason = isBlocked ? NEEDS_CHECKING : error;
  return (
    <Card className="mx-auto grid w-full max-w-xl justify-items-center gap-5 px-6 py-10 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <PiggyBank className="size-7" aria-hidden />
      </span>
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">Savings</h1>
        <p className="text-sm text-ink-muted">
          A savings account beside your checking: move money in and out at once, with no fees, and earn
          interest on every day's balance.
        </p>
      </div>
      <div className="grid gap-1">
        <p className="text-4xl font-semibold tracking-tight text-ink tabular-nums">{apy} APY</p>
        <p className="text-xs text-ink-subtle">{SAVINGS_MESSAGES.variableRate}</p>
      </div>
      <div className="grid justify-items-center gap-2">
        <Button
          onClick={onOpen}
          disabled={isBlocked || open.isPending || summary.isPending}
          aria-describedby={reason ? "open-savings-reason" : undefined}
        >
          {open.isPending ? <Spinner className="size-4 text-white" label="Opening" /> : null}
          Open savings account
        </Button>
        {reason ? (
          <p
            id="open-savings-reason"
            className={isBlocked ? "text-sm text-ink-muted" : "text-sm text-negative"}
            role={isBlocked ? undefined : "alert"}
          >
            {reason}
          </p>
        ) : null}
      </div>
    </Card>
  );
}

function Figure({ label, amount }: { label: string; amount: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-ink-muted">{label}</dt>
      <dd className="text-lg font-semibold text-ink tabular-nums">{amount}</dd>
    </div>
  );
}

/** The balance, the rate and the interest earned, its heading the place focus returns to after a change. */
function BalanceCard({
  account,
  apy,
  nextRate,
  headingRef,
}: {
  account: OpenAccount;
  apy: string;
  nextRate: SavingsOverview["nextRate"];
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  return (
    <Card className="grid gap-6 p-6">
      <div className="grid gap-1">
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="text-sm font-medium text-ink-muted focus-visible:outline-none"
        >
          Savings balance
        </h1>
        <p className="text-4xl font-semibold tracking-tight text-ink tabular-nums">
          {account.balance.amount}
        </p>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-ink-muted">
          <Badge tone="brand">{apy} APY</Badge>
          <span>Variable; may change.</span>
        </p>
        {nextRate ? (
          <p className="text-sm text-ink">
            {`Your rate changes to ${nextRate.apy} APY on ${formatRunDay(nextRate.effectiveOn)}.`}
          </p>
        ) : null}
      </div>
      <div className="grid gap-3 border-t border-line pt-4">
        <h2 className="text-sm font-semibold text-ink">Interest earned</h2>
        <dl className="grid grid-cols-3 gap-4">
          <Figure label="This month" amount={account.accruedThisMonth.amount} />
          <Figure label="This year" amount={account.earnedThisYear.amount} />
          <Figure label="All time" amount={account.earnedAllTime.amount} />
        </dl>
        <p className="text-xs text-ink-subtle">
          Interest accrues daily and is paid into savings on the last day of each month.
          {account.accruedThrough
            ? ` This month's figure counts through ${formatRunDay(account.accruedThrough)}.`
            : ""}
        </p>
      </div>
    </Card>
  );
}

function GoodToKnow() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Good to know</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid list-disc gap-2 pl-5 text-sm text-ink-muted">
          <li>
            Moves between checking and savings are instant and free, and don't count toward your daily limit.
          </li>
          <li>Interest is worked out on each day's closing balance and paid on the month's last day.</li>
          <li>{SAVINGS_MESSAGES.variableRate}</li>
          <li>Moves show in your checking history as "To Savings" and "From Savings".</li>
        </ul>
      </CardContent>
    </Card>
  );
}

/**
 * /savings (docs/banking.md "Savings"): open savings, move money with checking, see the interest, and save toward
 * goals.
 */
export default function SavingsPage() {
  useDocumentTitle("Savings");
  const savings = useSavings();
  const summary = useAccountSummary();
  const [announcement, setAnnouncement] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  // After a change the customer hears it and lands on the balance it changed.
  const settle = (said: string) => {
    setAnnouncement(said);
    requestAnimationFrame(() => heading.current?.focus());
  };

  const overview = savings.data;
  return (
    <MoneyShell title="Savings" tab="/dashboard">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {savings.isPending ? (
        <PageSkeleton />
      ) : savings.isError || !overview ? (
        <LoadError what="your savings" onRetry={() => void savings.refetch()} framed />
      ) : !overview.account ? (
        <OpenSavings
          apy={overview.rate.apy}
          onOpened={() => settle(`${SAVINGS_MESSAGES.opened}. It earns ${overview.rate.apy} APY.`)}
        />
      ) : (
        <div className="grid items-start gap-6 grid-cols-[minmax(0,1fr)] lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="grid min-w-0 gap-6">
            <BalanceCard
              account={overview.account}
              apy={overview.rate.apy}
              nextRate={overview.nextRate}
              headingRef={heading}
            />
            <MoveMoneyForm
              balances={{
                checkingAvailable: summary.data?.availableBalance ?? null,
                savings: overview.account.balance.amount,
              }}
              goals={overview.account.goals}
              onMoved={settle}
            />
            <SavingsGoals
              goals={overview.account.goals}
              onAdded={(name) => setAnnouncement(`Goal added: ${name}.`)}
            />
          </div>
          <div className="grid gap-6">
            <GoodToKnow />
            <CloseSavingsCard balance={overview.account.balance.amount} onClosed={setAnnouncement} />
          </div>
        </div>
      )}
    </MoneyShell>
  );
}
