import {
  ArrowDownToLine,
  ArrowLeft,
  ArrowUpFromLine,
  ClipboardCheck,
  FileCheck2,
  Landmark,
  Mail,
  MessagesSquare,
  Users,
} from "lucide-react";
import { useEffect } from "react";
import { Link, useLocation } from "wouter";
import { holdsAnyRole } from "@/contract/staff";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { LogoMark } from "@/web/components/ui/logo";
import { FullScreenSpinner } from "@/web/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { toast } from "@/web/components/ui/use-toast";
import AccountRequestsTab from "@/web/features/admin/account-requests/account-requests-tab";
import { useAdminStats } from "@/web/features/admin/api/get-admin-stats";
import ApprovalsTab from "@/web/features/admin/approvals/approvals-tab";
import AdminChatsTab from "@/web/features/admin/chats/admin-chats-tab";
import { EmailTestTab } from "@/web/features/admin/components/email-test-tab";
import { SecondFactorRequired } from "@/web/features/admin/components/second-factor-required";
import { StatCards } from "@/web/features/admin/components/stat-cards";
import { UserManagementTab } from "@/web/features/admin/components/user-management-tab";
import KycApplicationsTab from "@/web/features/admin/kyc/kyc-applications-tab";
import IncomingPaymentsTab from "@/web/features/admin/payments/incoming-payments-tab";
import OutgoingPaysTab from "@/web/features/admin/transfers/outgoing-pays-tab";
import { ApiError } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

/** Spec §9: the admin redirect happens after 500 ms. */
const REDIRECT_DELAY_MS = 500;

/** Spec §5 admin gate: non-admins see a toast and go home after 500 ms. */
function useAdminGate(isAdmin: boolean) {
  const [, navigate] = useLocation();
  useEffect(() => {
    if (isAdmin) return;
    toast({
      title: "Unauthorized",
      description: "You don't have permission to access this page.",
      variant: "destructive",
    });
    const timer = setTimeout(() => navigate("/"), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isAdmin, navigate]);
}

export default function AdminPage() {
  const { data: user } = useCurrentUser();
  const isAdmin = user?.isAdmin === true;
  useAdminGate(isAdmin);
  useDocumentTitle("Admin");
  // The stats card's own query: when the server says a second factor is missing, nothing else is mounted.
  const stats = useAdminStats({ enabled: isAdmin });
  // Wait for it, so the tabs' own calls never run into the same refusal.
  if (!isAdmin || stats.isPending) return <FullScreenSpinner />;
  // Maker-checker queue: for the roles that decide approvals (owners included).
  const seesApprovals = holdsAnyRole(user.staffRoles, ["finance", "compliance"]);
  if (stats.error instanceof ApiError && stats.error.hasFlag("secondFactorRequired"))
    return <SecondFactorRequired />;

  return (
    <div className="min-h-dvh bg-canvas">
      <header className="border-b border-line bg-surface">
        <Container className="flex h-16 items-center justify-between gap-3">
          <div className="flex min-w-0 items-center gap-3">
            <LogoMark />
            <div className="min-w-0">
              <h1 className="truncate text-base font-semibold text-ink">Admin Dashboard</h1>
              <p className="hidden truncate text-xs text-ink-muted sm:block">
                Users, accounts, payments and support
              </p>
            </div>
          </div>
          <Button asChild variant="secondary" size="sm">
            <Link href="/dashboard">
              <ArrowLeft aria-hidden />
              <span className="hidden sm:inline">Back to Dashboard</span>
              <span className="sm:hidden">Back</span>
            </Link>
          </Button>
        </Container>
      </header>
      <main>
        <Container className="grid gap-6 py-8">
          <StatCards />
          <Tabs defaultValue="users" className="min-w-0">
            <TabsList className="w-full justify-start">
              <TabsTrigger className="px-2.5" value="users">
                <Users aria-hidden />
                User Management
              </TabsTrigger>
              <TabsTrigger className="px-2.5" value="account-requests">
                <Landmark aria-hidden />
                Account Requests
              </TabsTrigger>
              <TabsTrigger className="px-2.5" value="kyc">
                <FileCheck2 aria-hidden />
                KYC Applications
              </TabsTrigger>
              <TabsTrigger className="px-2.5" value="outgoing">
                <ArrowUpFromLine aria-hidden />
                Outgoing Pays
              </TabsTrigger>
              <TabsTrigger className="px-2.5" value="incoming">
                <ArrowDownToLine aria-hidden />
                Incoming Payments
              </TabsTrigger>
              {seesApprovals ? (
                <TabsTrigger className="px-2.5" value="approvals">
                  <ClipboardCheck aria-hidden />
                  Approvals
                </TabsTrigger>
              ) : null}
              <TabsTrigger className="px-2.5" value="chats">
                <MessagesSquare aria-hidden />
                User Chats
              </TabsTrigger>
              <TabsTrigger className="px-2.5" value="email">
                <Mail aria-hidden />
                Email Test
              </TabsTrigger>
            </TabsList>
            <TabsContent value="users">
              <UserManagementTab />
            </TabsContent>
            <TabsContent value="account-requests">
              <AccountRequestsTab />
            </TabsContent>
            <TabsContent value="kyc">
              <KycApplicationsTab />
            </TabsContent>
            <TabsContent value="outgoing">
              <OutgoingPaysTab />
            </TabsContent>
            <TabsContent value="incoming">
              <IncomingPaymentsTab />
            </TabsContent>
            {seesApprovals ? (
              <TabsContent value="approvals">
                <ApprovalsTab />
              </TabsContent>
            ) : null}
            <TabsContent value="chats">
              <AdminChatsTab />
            </TabsContent>
            <TabsContent value="email">
              <EmailTestTab />
            </TabsContent>
          </Tabs>
        </Container>
      </main>
    </div>
  );
}
