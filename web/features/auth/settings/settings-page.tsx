import { useEffect } from "react";
import { SignedInPage } from "@/web/components/signed-in-page";
import { ChangePasswordCard } from "@/web/features/auth/settings/change-password-card";
import { CloseAccountCard } from "@/web/features/auth/settings/close-account-card";
import { DataAccessCard } from "@/web/features/auth/settings/data-access-card";
import { IdentityVerificationDetails } from "@/web/features/auth/settings/identity-verification-details";
import { NotificationSettingsCard } from "@/web/features/auth/settings/notification-settings-card";
import { PasskeysSection } from "@/web/features/auth/settings/passkeys-section";
import { ProfileCard } from "@/web/features/auth/settings/profile-card";
import { SecurityCard } from "@/web/features/auth/settings/security-card";
import { SessionsCard } from "@/web/features/auth/settings/sessions-card";
import { SettingsQuickActions } from "@/web/features/auth/settings/settings-quick-actions";
import { SendingLimitsCard } from "@/web/features/transfers/settings/sending-limits-card";
import { useSignedInUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

export default function SettingsPage() {
  const user = useSignedInUser();
  // Staff never bank: no way back to a dashboard, no application, no money actions (each would bounce to /admin).
  const isStaff = user.isAdmin;
  useDocumentTitle("Account Settings");
  // /settings#security (from the dashboard banner or the back office) lands on the Security card; #sending-limits
  // (from Send Money) on the customer's own limits.
  useEffect(() => {
    const hash = window.location.hash;
    if (hash === "#security" || hash === "#sending-limits" || hash === "#close-account")
      document.getElementById(hash.slice(1))?.scrollIntoView();
  }, []);
  return (
    <SignedInPage
      user={user}
      back={
        isStaff
          ? { href: "/admin", label: "Back to Admin Panel" }
          : { href: "/dashboard", label: "Back to Dashboard" }
      }
      title="Account Settings"
      description="Manage your profile, security and devices."
    >
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="grid gap-6 lg:col-span-2">
          <ProfileCard user={user} />
          <SecurityCard />
          <PasskeysSection />
          {isStaff ? null : <SendingLimitsCard />}
          <ChangePasswordCard />
          <SessionsCard />
          {isStaff ? null : <NotificationSettingsCard />}
          <DataAccessCard />
          {isStaff ? null : <CloseAccountCard />}
        </div>
        {isStaff ? null : (
          <div className="grid gap-6">
            <IdentityVerificationDetails />
            <SettingsQuickActions />
          </div>
        )}
      </div>
    </SignedInPage>
  );
}
