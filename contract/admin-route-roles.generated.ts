// Generated from the endpoint contracts by `npm run contract:generate` (scripts/contract-generate.ts): do not edit.
import type { StaffRole } from "@/contract/staff";

/** The staff roles each contract-declared /api/admin endpoint names (owners may call every one). */
export const CONTRACT_ADMIN_ROUTE_ROLES = {
  "GET /api/admin/savings/finance": ["finance"],
  "GET /api/admin/savings/rates": ["finance"],
  "POST /api/admin/savings/rates": ["owner"],
  "POST /api/admin/users/:userId/close": ["compliance"],
} as const satisfies Readonly<Record<string, readonly StaffRole[]>>;
