import { startTransition, useEffect, useState } from "react";
import { defaultDashboardContent } from "@/contract/dashboard-content-fields";
import { formatMoney } from "@/contract/money";
import { toOnboardingState } from "@/contract/onboarding-state";
import { AppHeader } from "@/web/components/app-header";
import {
  type BalanceFigures,
  DashboardOverview,
  type Loadable,
} from "@/web/components/dashboard/dashboard-overview";
import { MAIN_PROPS } from "@/web/components/skip-link";
import { Container } from "@/web/components/ui/container";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import { useAccountClosure } from "@/web/features/accounts/api/account-closure";
import { AccountNumbers } from "@/web/features/accounts/components/account-numbers";
import { ClosedBanner } from "@/web/features/accounts/components/closed-banner";
import { ComingUpCard } from "@/web/features/accounts/components/coming-up-card";
import { FrozenBanner } from "@/web/features/accounts/components/frozen-banner";
import { PaymentsHistory } from "@/web/features/accounts/components/payments-history";
import { SavingsLine } from "@/web/features/accounts/components/savings-line";
import { SecondFactorBanner } from "@/web/features/accounts/components/second-factor-banner";
import { SupportShortcut } from "@/web/features/accounts/components/support-shortcut";
import { QuickActionsCard } from "@/web/features/accounts/quick-actions-card";
import { useDashboardContent } from "@/web/features/content/api/get-dashboard-content";
import { KYC_STATUS_POLL_MS, useKycStatus } from "@/web/features/kyc/api/get-kyc-status";
import { useAccountSummary } from "@/web/lib/account-summary";
import { useSignedInUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

// Once per page load, not on every return to the dashboard.
let hasWarnedAboutPhone = false;

/**
 * False until the overview has been drawn, then true, as a transition: the cards below it render in slices
 * React can yield between, instead of in the one long task that drew the whole page (on a phone-class CPU
 * the longest task of the dashboard's first load).
 */
function useAfterOverview(isOverviewDrawn: boolean): boolean {
  const [isAfter, setAfter] = useState(false);
  useEffect(() => {
    if (isOverviewDrawn) startTransition(() => setAfter(true));
  }, [isOverviewDrawn]);
  return isAfter;
}

export default function DashboardPage() {
  const user = useSignedInUser();
  const contentQuery = useDashboardContent();
  const summary = useAccountSummary();
  // A closed account (decision 059) shows its banner and no money actions; staff have no account to close.
  const closure = useAccountClosure(!user.isAdmin).data?.closure ?? null;
  const status = useKycStatus({ refetchInterval: KYC_STATUS_POLL_MS });
  const showsCardsBelow = useAfterOverview(!contentQuery.isPending);
  useDocumentTitle("Dashboard");

  useEffect(() => {
    if (user.phoneNumber || hasWarnedAboutPhone) return;
    hasWarnedAboutPhone = true;
    toast({
      title: "Phone Number Required",
      description: "Please add your phone number in Settings to access all features",
      variant: "destructive",
    });
  }, [user.phoneNumber]);

  // If the labels cannot be loaded the spec's defaults stand in; the page itself still works.
  const content = contentQuery.data ?? defaultDashboardContent(user.pillarTag);

  const balances: Loadable<BalanceFigures> = summary.data
    ? {
        status: "ready",
        data: {
          total: formatMoney(summary.data.balanceCents),
          available: formatMoney(summary.data.availableCents),
          pending: formatMoney(summary.data.pendingCents),
          hasPending: summary.data.pendingCents > 0,
        },
      }
    : summary.isError
      ? { status: "error", retry: () => void summary.refetch() }
      : { status: "loading" };
  const onboarding = status.data
    ? ({ status: "ready", data: toOnboardingState(status.data) } as const)
    : status.isError
      ? ({ status: "error", retry: () => void status.refetch() } as const)
      : ({ status: "loading" } as const);

  return (
    <div className="min-h-dvh bg-canvas">
      <AppHeader user={user} />
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className="grid gap-6 py-8">
          {contentQuery.isPending ? (
            // The cards below wait with the texts: drawn first, they were pushed down a screen when the
            // overview arrived (Lighthouse's layout shift 0.73 on a phone).
            <div className="grid gap-6" aria-busy="true">
              <div className="grid gap-1">
                <Skeleton className="h-8 w-64 max-w-full" />
                <Skeleton className="h-5 w-56 max-w-full" />
              </div>
              <Skeleton className="h-48 w-full" />
            </div>
          ) : (
            <>
              <DashboardOverview
                firstName={user.firstName}
                texts={content}
                balances={balances}
                onboarding={onboarding}
                accountNumbers={
                  status.data?.accountRequest?.accountNumber ? (
                    <AccountNumbers request={status.data.accountRequest} />
                  ) : undefined
                }
                savings={user.isAdmin ? undefined : <SavingsLine canOpen={closure === null} />}
                banners={
                  <>
                    {closure ? <ClosedBanner closure={closure} /> : null}
                    {user.isFrozen ? <FrozenBanner /> : null}
                    {user.secondFactorEnabled || user.isAdmin || closure ? null : <SecondFactorBanner />}
                  </>
                }
              />
              {showsCardsBelow ? (
                <>
                  <QuickActionsCard title={content.quickActionTitle} closed={closure !== null} />
                  {user.isAdmin ? null : <ComingUpCard />}
                  <PaymentsHistory title={content.transactionTitle} />
                  <SupportShortcut />
                </>
              ) : null}
            </>
          )}
        </Container>
      </main>
    </div>
  );
}
