import { ArrowLeft } from "lucide-react";
import { useEffect } from "react";
import { Link } from "wouter";
import { AppHeader } from "@/web/components/app-header";
import { MAIN_PROPS } from "@/web/components/skip-link";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { ChangePasswordCard } from "@/web/features/security/components/change-password-card";
import { DataAccessCard } from "@/web/features/security/components/data-access-card";
import { IdentityVerificationDetails } from "@/web/features/security/components/identity-verification-details";
import { PasskeysSection } from "@/web/features/security/components/passkeys-section";
import { ProfileCard } from "@/web/features/security/components/profile-card";
import { SecurityCard } from "@/web/features/security/components/security-card";
import { SessionsCard } from "@/web/features/security/components/sessions-card";
import { SettingsQuickActions } from "@/web/features/security/components/settings-quick-actions";
import { useSignedInUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

export default function SettingsPage() {
  const user = useSignedInUser();
  useDocumentTitle("Account Settings");
  // /settings#security (from the dashboard banner or the back office) lands on the Security card.
  useEffect(() => {
    if (window.location.hash === "#security") document.getElementById("security")?.scrollIntoView();
  }, []);
  return (
    <div className="min-h-dvh bg-canvas">
      <AppHeader user={user} />
      <main {...MAIN_PROPS} className="focus-visible:outline-none">
        <Container className="grid gap-6 py-8">
          <div className="grid gap-2">
            <Button asChild variant="ghost" size="sm" className="-ml-3 justify-self-start">
              <Link href="/dashboard">
                <ArrowLeft aria-hidden />
                Back to Dashboard
              </Link>
            </Button>
            <h1 className="text-2xl font-semibold tracking-tight text-ink">Account Settings</h1>
            <p className="text-sm text-ink-muted">Manage your profile, security and devices.</p>
          </div>
          <div className="grid items-start gap-6 lg:grid-cols-3">
            <div className="grid gap-6 lg:col-span-2">
              <ProfileCard user={user} />
              <SecurityCard />
              <PasskeysSection />
              <ChangePasswordCard />
              <SessionsCard />
              <DataAccessCard />
            </div>
            <div className="grid gap-6">
              <IdentityVerificationDetails />
              <SettingsQuickActions />
            </div>
          </div>
        </Container>
      </main>
    </div>
  );
}
