import { useEffect } from "react";
import { defaultDashboardContent } from "@/contract/dashboard-content";
import { AppHeader } from "@/web/components/app-header";
import { Container } from "@/web/components/ui/container";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/components/ui/use-toast";
import { useDashboardContent } from "@/web/features/dashboard/api/get-dashboard-content";
import { AccountStatusCards } from "@/web/features/dashboard/components/account-status-cards";
import { BalanceCard } from "@/web/features/dashboard/components/balance-card";
import { FrozenBanner } from "@/web/features/dashboard/components/frozen-banner";
import { PaymentsHistory } from "@/web/features/dashboard/components/payments-history";
import { SecondFactorBanner } from "@/web/features/dashboard/components/second-factor-banner";
import { SupportShortcut } from "@/web/features/dashboard/components/support-shortcut";
import { QuickActionsCard } from "@/web/features/dashboard/quick-actions-card";
import { useSignedInUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

// Once per page load, not on every return to the dashboard.
let hasWarnedAboutPhone = false;

export default function DashboardPage() {
  const user = useSignedInUser();
  const contentQuery = useDashboardContent();
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

  return (
    <div className="min-h-dvh bg-canvas">
      <AppHeader user={user} />
      <main>
        <Container className="grid gap-6 py-8">
          <div className="grid gap-1">
            {contentQuery.isPending ? (
              <>
                <Skeleton className="h-8 w-64 max-w-full" />
                <Skeleton className="h-5 w-56 max-w-full" />
              </>
            ) : (
              <>
                <h1 className="text-2xl font-semibold tracking-tight text-ink">
                  {content.welcomeTitle.replace(/!$/, "")}, {user.firstName}!
                </h1>
                <p className="text-sm text-ink-muted">{content.welcomeMessage}</p>
              </>
            )}
          </div>
          {user.isFrozen ? <FrozenBanner /> : null}
          {user.secondFactorEnabled || user.isAdmin ? null : <SecondFactorBanner />}
          <BalanceCard labels={content} />
          <AccountStatusCards statusTitle={content.statusTitle} statusMessage={content.statusMessage} />
          <QuickActionsCard title={content.quickActionTitle} />
          <PaymentsHistory title={content.transactionTitle} />
          <SupportShortcut />
        </Container>
      </main>
    </div>
  );
}
