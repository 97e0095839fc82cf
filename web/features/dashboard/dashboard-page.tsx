import { useEffect } from "react";
import { AppHeader } from "@/web/components/app-header";
import { Container } from "@/web/components/ui/container";
import { toast } from "@/web/components/ui/use-toast";
import { AccountStatusCards } from "@/web/features/dashboard/components/account-status-cards";
import { SupportShortcut } from "@/web/features/dashboard/components/support-shortcut";
import { QuickActionsCard } from "@/web/features/dashboard/quick-actions-card";
import { useSignedInUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

// Once per page load, not on every return to the dashboard.
let hasWarnedAboutPhone = false;

export default function DashboardPage() {
  const user = useSignedInUser();
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

  return (
    <div className="min-h-dvh bg-canvas">
      <AppHeader user={user} />
      <main>
        <Container className="grid gap-6 py-8">
          <div className="grid gap-1">
            <h1 className="text-2xl font-semibold tracking-tight text-ink">Welcome back!</h1>
            <p className="text-sm text-ink-muted">Here's your account overview</p>
          </div>
          <AccountStatusCards />
          <QuickActionsCard />
          <SupportShortcut />
        </Container>
      </main>
    </div>
  );
}
