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
  // Closing a customer's account (decision 059): compliance, who answer for the records a closure keeps.

  // Staff management: owners alone grant and revoke roles.

  // Support: the chat inbox and the per-customer dashboard text.
  "GET /api/admin/chats/": ["support"],

  // Compliance: freezes and the customer's own send block (identity checks and account opening are by contract).
  // Lifting a customer's own send block, identity re-verified; a second member approves (decision 047).
  "GET /api/admin/users/:userId/self-limits": ["compliance"],
  "POST /api/admin/users/:userId/lift-send-block": ["compliance"],

  // Maker-checker: the queue; who may decide each approval is checked per kind (finance money, compliance KYC
  // resets and freezes), and never its maker.

  // Finance: money in and out, balances, the ledger.
  "GET /api/admin/transfer-requests": ["finance"],
  "PUT /api/admin/transfer-requests/:id": ["finance"],
  // A note on a customer's own limits: the only thing staff do about them (decision 035).
  "POST /api/admin/users/:userId/self-limit-notes": ["support"],
  // Settlement on chain (decision 038): the hot wallet, payouts, deposits and reconciliation reports.
  // Settled outside Pillar: proposed here, decided on the approvals routes by a second member (decision 040).
  // The treasury: sweeps, to cold, returns (decision 060).
  // Form 1099-INT (decision 070): the yearly run, its status and the IRS file (full TINs: finance and owners only).
  // Proposed here, approved on the approvals routes by a second finance member.
  // Every endpoint declared by contract (decision 075), generated from it.
  ...CONTRACT_ADMIN_ROUTE_ROLES,
} as const satisfies Readonly<Record<string, readonly StaffRole[]>>;

export type AdminRouteKey = keyof typeof ADMIN_ROUTE_ROLES;

/** Roles that may open uploaded KYC documents besides their owner (others get the stranger's 404). */
export const DOCUMENT_ROLES: readonly StaffRole[] = ["compliance"];
