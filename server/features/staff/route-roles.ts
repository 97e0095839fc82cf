import { holdsAnyRole, type StaffRole } from "@/contract/staff";

/** Every staff role below owner; owners pass every check without being listed. */
const ANY_STAFF: readonly StaffRole[] = ["support", "compliance", "finance"];
const OWNER: readonly StaffRole[] = ["owner"];

/**
 * Who may call each /api/admin route: one table, read by requireAdmin on every admin request. A route
 * missing here cannot be registered (assertAdminRouteListed), so a new admin route is never open by accident.
 * Keys are `METHOD /path` with Fastify's parameter syntax; owners may call everything.
 */
export const ADMIN_ROUTE_ROLES: Readonly<Record<string, readonly StaffRole[]>> = {
  // Overview and the read-only customer view (SSN masked, documents are compliance's).
  "GET /api/admin/stats": ANY_STAFF,
  "GET /api/admin/users": ANY_STAFF,
  "GET /api/admin/users/:userId": ANY_STAFF,
  "DELETE /api/admin/users/:userId": OWNER,
  "POST /api/admin/test-email": OWNER,

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
  "GET /api/admin/users/:userId/onboarding": ["compliance"],
  "GET /api/admin/account-requests": ["compliance"],
  "PUT /api/admin/account-requests/:id": ["compliance"],
  "POST /api/admin/users/:userId/unfreeze": ["compliance"],

  // Finance: money in and out, balances, the ledger.
  "GET /api/admin/transfer-requests": ["finance"],
  "PUT /api/admin/transfer-requests/:id": ["finance"],
  "GET /api/admin/incoming-payments": ["finance"],
  "POST /api/admin/incoming-payments": ["finance"],
  "PUT /api/admin/incoming-payments/:id": ["finance"],
  "GET /api/admin/transactions": ["finance"],
  "POST /api/admin/transactions": ["finance"],
  "PUT /api/admin/transactions/:id": ["finance"],
  "PUT /api/admin/users/:userId/balance": ["finance"],
  "GET /api/admin/ledger/verify": ["finance"],
  "POST /api/admin/send-payment-notification": ["finance"],

  // Maker-checker: the queue is read by both checking roles; who may decide is checked per kind inside.
  "GET /api/admin/approvals": ["finance", "compliance"],
  "POST /api/admin/approvals/:id/approve": ["finance", "compliance"],
  "POST /api/admin/approvals/:id/reject": ["finance", "compliance"],
};

/** Roles that may open uploaded KYC documents besides their owner. */
export const DOCUMENT_ROLES: readonly StaffRole[] = ["compliance"];

function routeKey(method: string, url: string): string {
  // HEAD is answered by the GET route.
  return `${method === "HEAD" ? "GET" : method} ${url}`;
}

/** The roles for a matched admin route; undefined when the table does not list it. */
export function rolesForAdminRoute(method: string, url: string): readonly StaffRole[] | undefined {
  return ADMIN_ROUTE_ROLES[routeKey(method, url)];
}

export function mayCallAdminRoute(held: readonly StaffRole[], method: string, url: string): boolean {
  const allowed = rolesForAdminRoute(method, url);
  return allowed !== undefined && holdsAnyRole(held, allowed);
}

/** Startup check for every registered route: an admin route must be in the table. */
export function assertAdminRouteListed(methods: string | string[], url: string): void {
  if (!url.startsWith("/api/admin")) return;
  for (const method of Array.isArray(methods) ? methods : [methods]) {
    if (method === "HEAD" || method === "OPTIONS") continue;
    if (!rolesForAdminRoute(method, url)) {
      throw new Error(`${method} ${url} is an admin route missing from ADMIN_ROUTE_ROLES`);
    }
  }
}
