import { Activity, AlertCircle, DollarSign, type LucideIcon, UserCheck, Users } from "lucide-react";
import type { AdminStats } from "@/contract/admin";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useAdminStats } from "@/web/features/users/admin/api/get-admin-stats";

/**
 * Total Balance moves without anyone on this page acting (a payout captured on chain, a deposit, a customer's
 * $tag payment, a credit by another staff member), and staff screens have no pushed stream (decision 034: only
 * customers have streams), so the cards re-read this often while the tab is shown
 * (docs/architecture.md "Design notes"), as Settlement does.
 */
export const STATS_POLL_MS = 15_000;

const CARDS: {
  key: keyof AdminStats;
  label: string;
  growth: string;
  icon: LucideIcon;
  definition?: string;
}[] = [
  // One definition, said on the card: the User Management list opens on the same customers.
  {
    key: "totalUsers",
    label: "Total Users",
    growth: "+12.5%",
    icon: Users,
    definition: "Customer accounts; staff not counted",
  },
  { key: "activeAccounts", label: "Active Accounts", growth: "+8.2%", icon: UserCheck },
  { key: "totalBalance", label: "Total Balance", growth: "+15.3%", icon: DollarSign },
  { key: "transactions", label: "Transactions", growth: "+23.1%", icon: Activity },
];

function formatStat(value: string | number): string {
  return typeof value === "number" ? value.toLocaleString("en-US") : value;
}

export function StatCards() {
  const stats = useAdminStats({ refetchInterval: STATS_POLL_MS });
  if (stats.isError) {
    return (
      <Card className="flex flex-wrap items-center justify-between gap-3 p-4 text-sm text-negative">
        <span className="flex items-center gap-2">
          <AlertCircle className="size-4" aria-hidden />
          We couldn't load the statistics.
        </span>
        <Button variant="secondary" size="sm" onClick={() => stats.refetch()}>
          Try again
        </Button>
      </Card>
    );
  }
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {CARDS.map(({ key, label, growth, icon: Icon, definition }) => (
        <li key={key}>
          <Card className="grid h-full content-start gap-2 p-4 sm:gap-3 sm:p-5">
            <div className="flex items-center justify-between gap-2">
              <span className="text-xs font-medium text-ink-muted sm:text-sm">{label}</span>
              <span className="hidden size-8 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 sm:flex">
                <Icon className="size-4" aria-hidden />
              </span>
            </div>
            {stats.isPending ? (
              <Skeleton className="h-8 w-24" />
            ) : (
              <span className="truncate text-xl font-semibold tracking-tight text-ink tabular-nums sm:text-2xl">
                {formatStat(stats.data[key])}
              </span>
            )}
            {definition ? <span className="text-xs text-ink-muted">{definition}</span> : null}
            <span className="text-xs text-ink-muted">
              <span className="font-medium text-positive tabular-nums">{growth}</span> from last month
            </span>
          </Card>
        </li>
      ))}
    </ul>
  );
}
