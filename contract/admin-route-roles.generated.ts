// Generated from the endpoint contracts by `npm run contract:generate` (scripts/contract-generate.ts): do not edit.
import type { StaffRole } from "@/contract/staff";

/** The staff roles each contract-declared /api/admin endpoint names (owners may call every one). */
export const CONTRACT_ADMIN_ROUTE_ROLES = {
  "DELETE /api/admin/users/:userId": ["owner"],
  "GET /api/admin/chats": ["support"],
  "GET /api/admin/chats/:userId": ["support"],
  "GET /api/admin/chats/:userId/customer": ["support"],
  "GET /api/admin/dashboard-content/:userId": ["support"],
  "GET /api/admin/savings/finance": ["finance"],
  "GET /api/admin/savings/rates": ["finance"],
  "GET /api/admin/staff": ["owner"],
  "GET /api/admin/stats": ["support", "compliance", "finance"],
  "GET /api/admin/users": ["support", "compliance", "finance"],
  "GET /api/admin/users/:userId": ["support", "compliance", "finance"],
  "POST /api/admin/chats/:userId/reply": ["support"],
  "POST /api/admin/savings/rates": ["owner"],
  "POST /api/admin/send-payment-notification": ["finance"],
  "POST /api/admin/staff": ["owner"],
  "POST /api/admin/staff/:userId/grant": ["owner"],
  "POST /api/admin/staff/:userId/revoke": ["owner"],
  "POST /api/admin/test-email": ["owner"],
  "POST /api/admin/users/:userId/unfreeze": ["compliance"],
  "PUT /api/admin/dashboard-content/:userId": ["support"],
} as const satisfies Readonly<Record<string, readonly StaffRole[]>>;
