import {
  ArrowDownRight,
  ArrowUpRight,
  BarChart3,
  Hash,
  PieChart as PieIcon,
  Receipt,
  ShieldAlert,
  Wallet,
} from "lucide-react";
import { type ComponentType, lazy, type ReactNode, Suspense, useMemo } from "react";
import { Link } from "wouter";
import { formatMoney } from "@/contract/money";
import { BlockedCard } from "@/web/components/blocked-card";
import { LoadError } from "@/web/components/load-error";
import { MoneyShell } from "@/web/components/money-shell";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { summarizeTransactions } from "@/web/features/accounts/analytics-summary";
import { deriveBalanceHistory } from "@/web/features/accounts/balance-history";
import { useAccountSummary } from "@/web/lib/account-summary";
import { cn } from "@/web/lib/cn";
import { useRecentTransactions } from "@/web/lib/recent-transactions";
import { ANALYTICS_BLOCKED, canSeeAnalytics } from "@/web/lib/send-money-gate";
import { useDocumentTitle } from "@/web/lib/use-document-title";

// The chart library loads only when this page draws a chart.
const BalanceHistoryChart = lazy(() =>
  import("@/web/features/accounts/components/analytics-charts").then((m) => ({
    default: m.BalanceHistoryChart,
  })),
);
const SpendingDonut = lazy(() =>
  import("@/web/features/accounts/components/analytics-charts").then((m) => ({ default: m.SpendingDonut })),
);

function StatCard({
  title,
  icon: Icon,
  value,
  caption,
}: {
  title: string;
  icon: ComponentType<{ className?: string }>;
  value: ReactNode;
  caption: ReactNode;
}) {
  return (
    <Card className="grid min-w-0 content-start gap-2 p-4 sm:p-5">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-ink-muted">{title}</p>
        <Icon className="size-4 text-ink-subtle" aria-hidden />
      </div>
      <div className="truncate text-xl font-semibold tracking-tight text-ink tabular-nums sm:text-2xl">
        {value}
      </div>
      <div className="text-xs text-ink-muted">{caption}</div>
    </Card>
  );
}

function Change({ cents, percent }: { cents: number; percent: number }) {
  if (cents === 0) return <span className="tabular-nums">No change · 0.0%</span>;
  const isUp = cents > 0;
  const Arrow = isUp ? ArrowUpRight : ArrowDownRight;
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 font-medium tabular-nums",
        isUp ? "text-positive" : "text-negative",
      )}
    >
      <Arrow className="size-3.5" aria-hidden />
      {isUp ? "+" : "−"}
      {formatMoney(Math.abs(cents))} ({isUp ? "+" : "−"}
      {Math.abs(percent).toFixed(1)}%)
    </span>
  );
}

function EmptyChart({
  icon: Icon,
  title,
  text,
}: {
  icon: ComponentType<{ className?: string }>;
  title: string;
  text: string;
}) {
  return (
    <div className="flex h-52 flex-col items-center justify-center gap-2 text-center">
      <span className="flex size-11 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="size-5" />
      </span>
      <p className="text-sm font-medium text-ink">{title}</p>
      <p className="max-w-xs text-xs text-ink-muted">{text}</p>
    </div>
  );
}

function PageSkeleton() {
  return (
    <div className="grid gap-6" aria-hidden>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-28 rounded-card" />
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-80 rounded-card" />
        <Skeleton className="h-80 rounded-card" />
      </div>
      <Skeleton className="h-40 rounded-card" />
    </div>
  );
}

function Blocked() {
  return (
    <BlockedCard
      icon={ShieldAlert}
      tone="negative"
      headingLevel="h2"
      title={ANALYTICS_BLOCKED.title}
      description={ANALYTICS_BLOCKED.description}
      action={
        <Button asChild>
          <Link href="/apply-checking">Submit New Application</Link>
        </Button>
      }
    />
  );
}

function AnalyticsContent() {
  const summary = useAccountSummary();
  const transactions = useRecentTransactions();

  const view = useMemo(() => {
    if (!summary.data || !transactions.data) return null;
    return {
      history: deriveBalanceHistory(summary.data.balanceCents, transactions.data),
      stats: summarizeTransactions(transactions.data),
    };
  }, [summary.data, transactions.data]);

  if (summary.isError || transactions.isError) {
    return (
      <LoadError
        what="your analytics"
        framed
        onRetry={() => {
          void summary.refetch();
          void transactions.refetch();
        }}
      />
    );
  }
  if (!summary.data || !view) return <PageSkeleton />;
  if (!canSeeAnalytics(summary.data)) return <Blocked />;

  const { history, stats } = view;
  const chartFallback = <Skeleton className="h-52 w-full" />;
  return (
    <div className="grid gap-6">
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard
          title="Current Balance"
          icon={Wallet}
          value={formatMoney(summary.data.balanceCents)}
          caption={<Change cents={history.changeCents} percent={history.changePercent} />}
        />
        <StatCard
          title="Total Spending"
          icon={Receipt}
          // Spending is an amount spent, shown positive: "−$1,000.00 spent" reads as a refund.
          value={formatMoney(stats.totalSpendingCents)}
          caption="Recent transactions"
        />
        <StatCard title="Transactions" icon={Hash} value={stats.count} caption="Total count" />
        <StatCard
          title="Avg Transaction"
          icon={BarChart3}
          value={formatMoney(stats.averageCents)}
          caption="Per transaction"
        />
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Balance History</CardTitle>
            <CardDescription>Your balance over your most recent transactions</CardDescription>
          </CardHeader>
          <CardContent>
            <Suspense fallback={chartFallback}>
              <BalanceHistoryChart points={history.points} />
            </Suspense>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Spending by Category</CardTitle>
            <CardDescription>Where your money went</CardDescription>
          </CardHeader>
          <CardContent>
            {stats.byCategory.length === 0 ? (
              <EmptyChart
                icon={PieIcon}
                title="No spending data available"
                text="Start making transactions to see analytics"
              />
            ) : (
              <Suspense fallback={chartFallback}>
                <SpendingDonut slices={stats.byCategory} />
              </Suspense>
            )}
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Transaction Summary</CardTitle>
        </CardHeader>
        <CardContent>
          {stats.count === 0 ? (
            <div className="flex flex-col items-center gap-2 py-6 text-center">
              <p className="text-sm font-medium text-ink">No transactions yet</p>
              <p className="max-w-sm text-xs text-ink-muted">
                Your transaction analytics will appear here once you start using your account
              </p>
              <Button asChild className="mt-2">
                <Link href="/send-money">Send Money</Link>
              </Button>
            </div>
          ) : (
            <dl className="grid grid-cols-3 gap-3 text-center">
              <div className="grid gap-1 rounded-lg bg-positive-soft/60 p-4">
                <dt className="text-xs font-medium text-ink-muted">Credits</dt>
                <dd className="text-2xl font-semibold text-positive tabular-nums">{stats.credits}</dd>
              </div>
              <div className="grid gap-1 rounded-lg bg-negative-soft/60 p-4">
                <dt className="text-xs font-medium text-ink-muted">Debits</dt>
                <dd className="text-2xl font-semibold text-negative tabular-nums">{stats.debits}</dd>
              </div>
              <div className="grid gap-1 rounded-lg bg-canvas p-4">
                <dt className="text-xs font-medium text-ink-muted">Total</dt>
                <dd className="text-2xl font-semibold text-ink tabular-nums">{stats.count}</dd>
              </div>
            </dl>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

export default function AnalyticsPage() {
  useDocumentTitle("Analytics");
  return (
    <MoneyShell title="Analytics" tab="/analytics">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight text-ink">Analytics</h1>
        <p className="text-sm text-ink-muted">Track your financial performance and spending patterns</p>
      </div>
      <AnalyticsContent />
    </MoneyShell>
  );
}
