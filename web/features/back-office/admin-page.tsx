import {
  ArrowDownToLine,
  ArrowUpFromLine,
  BadgePercent,
  ClipboardCheck,
  FileCheck2,
  Landmark,
  type LucideIcon,
  Mail,
  MessagesSquare,
  Scale,
  ScrollText,
  UserCog,
  Users,
} from "lucide-react";
import { type ComponentType, lazy, Suspense, useState } from "react";
import { Link } from "wouter";
import type { StaffCapability } from "@/contract/staff-capabilities";
import { canUse } from "@/contract/staff-capabilities";
import { AdminShell } from "@/web/components/admin/admin-shell";
import { OpenAdminTabContext } from "@/web/components/admin/admin-tab-context";
import { useAdminGate } from "@/web/components/admin/use-admin-gate";
import { Button } from "@/web/components/ui/button";
import { FullScreenSpinner, Spinner } from "@/web/components/ui/spinner";
import { Tabs, TabsContent, TabsTrigger } from "@/web/components/ui/tabs";
import ApprovalsTab from "@/web/features/approvals/admin/approvals-tab";
import AuditTab from "@/web/features/audit/admin/audit-tab";
import { AdminTabStrip } from "@/web/features/back-office/components/admin-tab-strip";
import { EmailTestTab } from "@/web/features/back-office/components/email-test-tab";
import { SecondFactorRequired } from "@/web/features/back-office/components/second-factor-required";
import { StatCards } from "@/web/features/back-office/components/stat-cards";
import AdminChatsTab from "@/web/features/chat/admin/admin-chats-tab";
import { BalanceEditor } from "@/web/features/credits/admin/balance-editor";
import IncomingPaymentsTab from "@/web/features/credits/admin/incoming-payments-tab";
import AccountRequestsTab from "@/web/features/kyc/admin/account-requests-tab";
import KycApplicationsTab from "@/web/features/kyc/admin/kyc-applications-tab";
import OutgoingPaysTab from "@/web/features/transfers/admin/outgoing-pays-tab";
import { useAdminStats } from "@/web/features/users/admin/api/get-admin-stats";
import { UserManagementTab } from "@/web/features/users/admin/user-management-tab";
import { failureOf } from "@/web/lib/api";
import { useCurrentUser } from "@/web/lib/current-user";
import { useDocumentTitle } from "@/web/lib/use-document-title";

// Only owners open the Staff tab: its code loads when they do.
const StaffTab = lazy(() => import("@/web/features/staff/admin/staff-tab"));
// Finance and owners only, and read when opened.
const SettlementTab = lazy(() => import("@/web/features/settlement/admin/settlement-tab"));
// Finance and owners: savings deposits, interest and the rate (decision 071).
const SavingsFinanceTab = lazy(() => import("@/web/features/savings/admin/savings-finance-tab"));

/** The Users tab, with the balance editor payments owns in each user's details (users never imports payments). */
function UsersTab() {
  return <UserManagementTab BalanceEditor={BalanceEditor} />;
}

interface AdminTab {
  value: string;
  label: string;
  icon: LucideIcon;
  /** The route the tab's list needs: a role the table refuses never sees the tab. */
  capability: StaffCapability;
  Content: ComponentType;
}

const TABS: AdminTab[] = [
  {
    value: "users",
    label: "User Management",
    icon: Users,
    capability: "usersTab",
    Content: UsersTab,
  },
  {
    value: "account-requests",
    label: "Account Requests",
    icon: Landmark,
    capability: "accountRequestsTab",
    Content: AccountRequestsTab,
  },
  {
    value: "kyc",
    label: "KYC Applications",
    icon: FileCheck2,
    capability: "kycTab",
    Content: KycApplicationsTab,
  },
  {
    value: "outgoing",
    label: "Outgoing Pays",
    icon: ArrowUpFromLine,
    capability: "outgoingTab",
    Content: OutgoingPaysTab,
  },
  {
    value: "incoming",
    label: "Incoming Payments",
    icon: ArrowDownToLine,
    capability: "incomingTab",
    Content: IncomingPaymentsTab,
  },
  {
    value: "chats",
    label: "User Chats",
    icon: MessagesSquare,
    capability: "chatsTab",
    Content: AdminChatsTab,
  },
  { value: "email", label: "Email Test", icon: Mail, capability: "emailTab", Content: EmailTestTab },
  {
    value: "approvals",
    label: "Approvals",
    icon: ClipboardCheck,
    capability: "approvalsTab",
    Content: ApprovalsTab,
  },
  {
    value: "settlement",
    label: "Settlement",
    icon: Scale,
    capability: "settlementTab",
    Content: SettlementTab,
  },
  {
    value: "savings",
    label: "Savings",
    icon: BadgePercent,
    capability: "savingsFinanceTab",
    Content: SavingsFinanceTab,
  },
  { value: "staff", label: "Staff", icon: UserCog, capability: "staffTab", Content: StaffTab },
  { value: "audit", label: "Audit", icon: ScrollText, capability: "auditTab", Content: AuditTab },
];

/** The tabs the signed-in staff member's roles allow, the first one open. */
function AdminTabs() {
  const { data: user } = useCurrentUser();
  const tabs = TABS.filter((tab) => canUse(user?.staffRoles ?? [], tab.capability));
  const [chosen, setChosen] = useState<string | null>(null);
  if (tabs.length === 0) return null;
  const active = chosen !== null && tabs.some((tab) => tab.value === chosen) ? chosen : tabs[0]!.value;
  return (
    <OpenAdminTabContext value={setChosen}>
      <Tabs value={active} onValueChange={setChosen} className="min-w-0">
        <AdminTabStrip active={active}>
          {tabs.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} className="px-2.5" value={value}>
              <Icon aria-hidden />
              {label}
            </TabsTrigger>
          ))}
        </AdminTabStrip>
        {tabs.map(({ value, Content }) => (
          <TabsContent key={value} value={value}>
            <Suspense
              fallback={
                <div className="flex justify-center py-12">
                  <Spinner label="Loading" />
                </div>
              }
            >
              <Content />
            </Suspense>
          </TabsContent>
        ))}
      </Tabs>
    </OpenAdminTabContext>
  );
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
  if (failureOf("GET /api/admin/stats", stats.error) === "admin_second_factor_required")
    return <SecondFactorRequired />;

  return (
    <AdminShell
      title="Admin Dashboard"
      subtitle={
        <p className="hidden truncate text-xs text-ink-muted sm:block">
          Users, accounts, payments and support
        </p>
      }
      back={
        // Staff have no customer dashboard to go back to (they never bank): settings and sign-out live here.
        <nav aria-label="Account" className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
          {canUse(user.staffRoles ?? [], "complianceDesk") ? (
            <Button asChild variant="secondary" size="sm">
              <Link href="/admin/compliance">Compliance</Link>
            </Button>
          ) : null}
          <Button asChild variant="secondary" size="sm">
            <Link href="/settings">Settings</Link>
          </Button>
          <Button asChild variant="ghost" size="sm">
            {/* Text only: an icon here would regroup the shared chunks and grow every page's first load. */}
            <a href="/api/logout">Logout</a>
          </Button>
        </nav>
      }
      mainClassName="grid gap-6 py-8"
    >
      <StatCards />
      <AdminTabs />
    </AdminShell>
  );
}
