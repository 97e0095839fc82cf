// Generated from the endpoint contracts by `npm run contract:generate` (scripts/contract-generate.ts): do not edit.
import type { StaffRole } from "@/contract/staff";

/** The staff roles each contract-declared /api/admin endpoint names (owners may call every one). */
export const CONTRACT_ADMIN_ROUTE_ROLES = {
  "GET /api/admin/savings/finance": ["finance"],
  "GET /api/admin/savings/rates": ["finance"],
  "GET /api/admin/transfer-requests": ["finance"],
  "GET /api/admin/users/:userId/self-limits": ["compliance"],
  "POST /api/admin/savings/rates": ["owner"],
  "POST /api/admin/users/:userId/lift-send-block": ["compliance"],
  "POST /api/admin/users/:userId/self-limit-notes": ["support"],
  "PUT /api/admin/transfer-requests/:id": ["finance"],
} as const satisfies Readonly<Record<string, readonly StaffRole[]>>;
