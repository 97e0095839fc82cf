import { useQuery } from "@tanstack/react-query";
import {
  AtSign,
  BarChart3,
  ChevronRight,
  FileText,
  type LucideIcon,
  PiggyBank,
  Receipt,
  Send,
  Settings,
  Wallet,
} from "lucide-react";
import type { MouseEvent } from "react";
import { Link } from "wouter";
import { Badge } from "@/web/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { toast } from "@/web/components/ui/use-toast";
import { useSelfLimits } from "@/web/features/transfers/api/self-limits";
import { accountSummaryQuery } from "@/web/lib/account-summary";
import {
  ADD_MONEY_BLOCKED,
  ANALYTICS_BLOCKED,
  canSeeAnalytics,
  canSendMoney,
  SEND_MONEY_BLOCKED,
} from "@/web/lib/send-money-gate";

interface QuickAction {
  label: string;
  description: string;
  icon: LucideIcon;
  href?: string;
}

const ACTIONS: QuickAction[] = [
  { label: "Send Money", description: "USDC transfers, 2% fee", icon: Send, href: "/send-money" },
  { label: "Pay by $tag", description: "Instant, no fee", icon: AtSign, href: "/pay" },
  { label: "Add Money", description: "USDC deposits", icon: Wallet, href: "/add-money" },
  { label: "Savings", description: "Interest, goals, no fees", icon: PiggyBank, href: "/savings" },
  { label: "Pay Bills", description: "Utilities and more", icon: Receipt },
  { label: "Analytics", description: "Spending and trends", icon: BarChart3, href: "/analytics" },
  { label: "Statements", description: "Monthly PDF statements", icon: FileText, href: "/statements" },
  { label: "Settings", description: "Profile and security", icon: Settings, href: "/settings" },
];

const TILE =
  "flex min-h-20 items-center gap-3 rounded-lg border border-line bg-surface p-4 text-left transition-colors";

/** Send Money needs an open account; Analytics is closed while KYC is rejected; Pay Bills is 'Soon'. */
/** What moves money: on a closed account (decision 059) these tiles are shown switched off. */
const MONEY_ACTIONS = new Set(["/send-money", "/pay", "/add-money", "/savings"]);

export function QuickActionsCard({
  title = "Quick Actions",
  closed = false,
}: {
  title?: string;
  closed?: boolean;
}) {
  // The page that shows this card has just refreshed the summary; mounting behind its skeleton does not ask again.
  const summary = useQuery({ ...accountSummaryQuery, refetchOnMount: false });

  // The customer's own guard rails, on the send-money entries (decision 035): a block, or their own daily
  // limit.
  const own = useSelfLimits().data;
  const ownNote = !own
    ? null
    : own.sendsBlocked
      ? own.blockedUntilText
        ? `Blocked by you until ${own.blockedUntilText}`
        : "Blocked by you (Settings)"
      : own.personalDailyLimit
        ? `Your limit: ${own.personalDailyLimit} a day`
        : null;

  const guard = (href: string) => (event: MouseEvent) => {
    // Until the summary arrives the gate cannot be judged; the target page checks again on its own.
    if (!summary.data) return;
    if ((href === "/send-money" || href === "/add-money" || href === "/pay") && !canSendMoney(summary.data)) {
      event.preventDefault();
      toast({ ...(href === "/add-money" ? ADD_MONEY_BLOCKED : SEND_MONEY_BLOCKED), variant: "destructive" });
    } else if (href === "/analytics" && !canSeeAnalytics(summary.data)) {
      event.preventDefault();
      toast({ ...ANALYTICS_BLOCKED, variant: "destructive" });
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {ACTIONS.map(({ label, description, icon: Icon, href }) => {
            const body = (
              <>
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                  <Icon className="size-5" aria-hidden />
                </span>
                <span className="grid min-w-0 flex-1 gap-0.5">
                  <span className="flex items-center gap-2 text-sm font-semibold text-ink">
                    {label}
                    {href ? null : <Badge tone="neutral">Soon</Badge>}
                  </span>
                  <span className="text-xs text-ink-muted">{description}</span>
                  {/* The block covers USDC only (decision 047): paying by $tag shows the daily limit alone. */}
                  {ownNote && (href === "/send-money" || (href === "/pay" && !own?.sendsBlocked)) ? (
                    <span
                      className={`text-xs font-medium ${own?.sendsBlocked ? "text-negative" : "text-ink"}`}
                    >
                      {ownNote}
                    </span>
                  ) : null}
                </span>
                {href ? <ChevronRight className="size-4 shrink-0 text-ink-subtle" aria-hidden /> : null}
              </>
            );
            return (
              <li key={label}>
                {href && closed && MONEY_ACTIONS.has(href) ? (
                  <div className={`${TILE} cursor-not-allowed opacity-60`} aria-disabled="true">
                    {body}
                    <span className="sr-only">Not available: this account is closed</span>
                  </div>
                ) : href ? (
                  <Link
                    href={href}
                    onClick={guard(href)}
                    className={`${TILE} hover:border-brand-200 hover:bg-brand-50/60`}
                  >
                    {body}
                  </Link>
                ) : (
                  <div className={`${TILE} cursor-not-allowed opacity-60`} aria-disabled="true">
                    {body}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
