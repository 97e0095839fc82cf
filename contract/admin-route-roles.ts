import { CONTRACT_ADMIN_ROUTE_ROLES } from "@/contract/admin-route-roles.generated";
import type { StaffRole } from "@/contract/staff";

/** Every staff role below owner; owners pass every check without being listed. */
const ANY_STAFF = ["support", "compliance", "finance"] as const satisfies readonly StaffRole[];
const OWNER = ["owner"] as const satisfies readonly StaffRole[];

/**
 * Who may call each /api/admin route: the one table. The server enforces it on every admin request
 * (requireAdmin, server/features/staff/route-roles.ts) and the admin web reads it to hide what a role cannot
 * do (contract/staff-capabilities.ts), so the two can never disagree. A route missing here cannot be
 * registered. Keys are `METHOD /path` with Fastify's parameter syntax; owners may call everything.
 */
export const ADMIN_ROUTE_ROLES = {
  // Overview and the read-only customer view (SSN masked, documents are compliance's).
  "GET /api/admin/stats": ANY_STAFF,
  "GET /api/admin/users": ANY_STAFF,
  "GET /api/admin/users/:userId": ANY_STAFF,
  "DELETE /api/admin/users/:userId": OWNER,
  // Closing a customer's account (decision 059): compliance, who answer for the records a closure keeps.
  "POST /api/admin/users/:userId/close": ["compliance"],
  "POST /api/admin/test-email": OWNER,

  // Staff management: owners alone grant and revoke roles.
  "GET /api/admin/staff": OWNER,
  "POST /api/admin/staff": OWNER,
  "POST /api/admin/staff/:userId/grant": OWNER,
  "POST /api/admin/staff/:userId/revoke": OWNER,

  // Support: the chat inbox and the per-customer dashboard text.
  "GET /api/admin/chats": ["support"],
  "GET /api/admin/chats/": ["support"],
  "GET /api/admin/chats/:userId": ["support"],
  "GET /api/admin/chats/:userId/customer": ["support"],
  "POST /api/admin/chats/:userId/reply": ["support"],
  "GET /api/admin/dashboard-content/:userId": ["support"],
  "PUT /api/admin/dashboard-content/:userId": ["support"],

  // Compliance: identity checks, account opening, freezes.
  "GET /api/admin/kyc-applications": ["compliance"],
  "PUT /api/admin/kyc/:id/approve": ["compliance"],
  "PUT /api/admin/kyc/:id/reject": ["compliance"],
  "PUT /api/admin/kyc/:id/reset": ["compliance"],
  // The onboarding state (no SSN, documents or full account number) also feeds support's dashboard-text preview.
  "GET /api/admin/users/:userId/onboarding": ["support", "compliance"],
  "GET /api/admin/account-requests": ["compliance"],
  "PUT /api/admin/account-requests/:id": ["compliance"],
  "POST /api/admin/users/:userId/unfreeze": ["compliance"],
  // Sensitive reads and the audit trail: each reveal is audited with its reason; the log is searchable.
  "POST /api/admin/kyc/:id/ssn/reveal": ["compliance"],
  "GET /api/admin/audit": ["compliance"],
  "GET /api/admin/audit.csv": ["compliance"],
  "POST /api/admin/kyc/:id/dob/reveal": ["compliance"],
  // Sanctions screening (decision 024): the lists, and the cases their hits open. Never support or finance.
  "GET /api/admin/compliance/cases": ["compliance"],
  "GET /api/admin/compliance/cases/:id": ["compliance"],
  "PUT /api/admin/compliance/cases/:id/assignee": ["compliance"],
  "POST /api/admin/compliance/cases/:id/comments": ["compliance"],
  "PUT /api/admin/compliance/cases/:id/narrative": ["compliance"],
  "POST /api/admin/compliance/cases/:id/documents": ["compliance"],
  "POST /api/admin/compliance/cases/:id/links": ["compliance"],
  "POST /api/admin/compliance/cases/:id/decisions": ["compliance"],
  "POST /api/admin/compliance/cases/:id/decisions/:decisionId/approve": ["compliance"],
  "POST /api/admin/compliance/cases/:id/decisions/:decisionId/reject": ["compliance"],
  "GET /api/admin/compliance/cases/:id/report.json": ["compliance"],
  "GET /api/admin/compliance/cases/:id/report.pdf": ["compliance"],
  // Reports a regulator asks for (decision 055).
  "GET /api/admin/compliance/cases/:id/sar": ["compliance"],
  "PUT /api/admin/compliance/cases/:id/sar": ["compliance"],
  "GET /api/admin/compliance/cases/:id/report.xml": ["compliance"],
  "GET /api/admin/compliance/ofac-reports": ["compliance"],
  "POST /api/admin/compliance/ofac-reports/:id/filed": ["compliance"],
  "GET /api/admin/compliance/ofac-reports/annual.csv": ["compliance"],
  "GET /api/admin/compliance/members": ["compliance"],
  "GET /api/admin/compliance/lists": ["compliance"],
  "POST /api/admin/compliance/lists": ["compliance"],
  "POST /api/admin/compliance/search": ["compliance"],
  // Transaction monitoring's alerts (decision 031): compliance's, like the cases they are filed on.
  "GET /api/admin/monitoring/alerts": ["compliance"],
  "GET /api/admin/monitoring/alerts/:id": ["compliance"],

  // Maker-checker: the queue; who may decide each approval is checked per kind (finance money, compliance KYC
  // resets and freezes), and never its maker.
  "GET /api/admin/approvals": ["finance", "compliance"],
  "POST /api/admin/approvals/:id/approve": ["finance", "compliance"],
  "POST /api/admin/approvals/:id/reject": ["finance", "compliance"],

  // Finance: money in and out, balances, the ledger.
  "GET /api/admin/incoming-payments": ["finance"],
  "POST /api/admin/incoming-payments": ["finance"],
  "PUT /api/admin/incoming-payments/:id": ["finance"],
  "GET /api/admin/transactions": ["finance"],
  "POST /api/admin/transactions": ["finance"],
  "PUT /api/admin/transactions/:id": ["finance"],
  "PUT /api/admin/users/:userId/balance": ["finance"],
  "GET /api/admin/ledger/verify": ["finance"],
  "POST /api/admin/send-payment-notification": ["finance"],
  // Settlement on chain (decision 038): the hot wallet, payouts, deposits and reconciliation reports.
  "GET /api/admin/settlement": ["finance"],
  "POST /api/admin/settlement/payouts/:id/speed-up": ["finance"],
  // Settled outside Pillar: proposed here, decided on the approvals routes by a second member (decision 040).
  "POST /api/admin/settlement/payouts/:id/settled-outside": ["finance"],
  "GET /api/admin/settlement/reconciliations": ["finance"],
  "POST /api/admin/settlement/reconciliations": ["finance"],
  "GET /api/admin/settlement/reconciliations/:id": ["finance"],
  "GET /api/admin/settlement/reconciliations/:id/report.csv": ["finance"],
  "POST /api/admin/settlement/reconciliations/:id/items/:itemId/acknowledge": ["finance"],
  // The treasury: sweeps, to cold, returns (decision 060).
  "GET /api/admin/settlement/treasury": ["finance"],
  // Form 1099-INT (decision 070): the yearly run, its status and the IRS file (full TINs: finance and owners only).
  "GET /api/admin/tax-forms/runs": ["finance"],
  "POST /api/admin/tax-forms/runs": ["finance"],
  "GET /api/admin/tax-forms/pub1220": ["finance"],
  // Proposed here, approved on the approvals routes by a second finance member.
  "POST /api/admin/settlement/deposits/:id/return": ["finance"],
  // Every endpoint declared by contract (decision 075), generated from it.
  ...CONTRACT_ADMIN_ROUTE_ROLES,
} as const satisfies Readonly<Record<string, readonly StaffRole[]>>;

export type AdminRouteKey = keyof typeof ADMIN_ROUTE_ROLES;

/** Roles that may open uploaded KYC documents besides their owner (others get the stranger's 404). */
export const DOCUMENT_ROLES: readonly StaffRole[] = ["compliance"];
