import { ADMIN_ROUTE_ROLES, type AdminRouteKey, DOCUMENT_ROLES } from "@/contract/admin-route-roles";
import { holdsAnyRole, type StaffRole } from "@/contract/staff";

/**
 * What the admin web shows, each named by the route it needs: a tab or button appears only when the server
 * would let its roles call that route, so the web hides exactly what the server refuses (one table,
 * ADMIN_ROUTE_ROLES). Documents are not an admin route: they follow DOCUMENT_ROLES.
 */
export const STAFF_CAPABILITIES = {
  usersTab: "GET /api/admin/users",
  accountRequestsTab: "GET /api/admin/account-requests",
  kycTab: "GET /api/admin/kyc-applications",
  outgoingTab: "GET /api/admin/transfer-requests",
  incomingTab: "GET /api/admin/incoming-payments",
  chatsTab: "GET /api/admin/chats",
  emailTab: "POST /api/admin/test-email",
  staffTab: "GET /api/admin/staff",
  auditTab: "GET /api/admin/audit",
  approvalsTab: "GET /api/admin/approvals",
  revealSsn: "POST /api/admin/kyc/:id/ssn/reveal",
  revealDateOfBirth: "POST /api/admin/kyc/:id/dob/reveal",
  complianceDesk: "GET /api/admin/compliance/cases",
  decideCase: "POST /api/admin/compliance/cases/:id/decisions",
  loadSanctionsList: "POST /api/admin/compliance/lists",
  monitoringAlerts: "GET /api/admin/monitoring/alerts",
  settlementTab: "GET /api/admin/settlement",
  savingsFinanceTab: "GET /api/admin/savings/finance",
  proposeSavingsRate: "POST /api/admin/savings/rates",
  startTaxFormRun: "POST /api/admin/tax-forms/runs",
  speedUpPayout: "POST /api/admin/settlement/payouts/:id/speed-up",
  runReconciliation: "POST /api/admin/settlement/reconciliations",
  proposeSettledOutside: "POST /api/admin/settlement/payouts/:id/settled-outside",
  proposeDepositReturn: "POST /api/admin/settlement/deposits/:id/return",
  acknowledgeDifference: "POST /api/admin/settlement/reconciliations/:id/items/:itemId/acknowledge",
  deleteUser: "DELETE /api/admin/users/:userId",
  liftFreeze: "POST /api/admin/users/:userId/unfreeze",
  closeAccount: "POST /api/admin/users/:userId/close",
  liftSendBlock: "POST /api/admin/users/:userId/lift-send-block",
  editBalance: "PUT /api/admin/users/:userId/balance",
  editDashboardContent: "PUT /api/admin/dashboard-content/:userId",
  openDocuments: DOCUMENT_ROLES,
} as const satisfies Record<string, AdminRouteKey | readonly StaffRole[]>;

export type StaffCapability = keyof typeof STAFF_CAPABILITIES;

/** Whether staff holding `roles` may use a capability (owners may use every one). */
export function canUse(roles: readonly StaffRole[], capability: StaffCapability): boolean {
  const need: AdminRouteKey | readonly StaffRole[] = STAFF_CAPABILITIES[capability];
  const allowed: readonly StaffRole[] = typeof need === "string" ? ADMIN_ROUTE_ROLES[need] : need;
  return holdsAnyRole(roles, allowed);
}
