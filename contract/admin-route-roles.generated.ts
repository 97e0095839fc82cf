// Generated from the endpoint contracts by `npm run contract:generate` (scripts/contract-generate.ts): do not edit.
import type { StaffRole } from "@/contract/staff";

/** The staff roles each contract-declared /api/admin endpoint names (owners may call every one). */
export const CONTRACT_ADMIN_ROUTE_ROLES = {
  "GET /api/admin/approvals": ["finance", "compliance"],
  "GET /api/admin/incoming-payments": ["finance"],
  "GET /api/admin/ledger/verify": ["finance"],
  "GET /api/admin/savings/finance": ["finance"],
  "GET /api/admin/savings/rates": ["finance"],
  "GET /api/admin/settlement": ["finance"],
  "GET /api/admin/settlement/reconciliations": ["finance"],
  "GET /api/admin/settlement/reconciliations/:id": ["finance"],
  "GET /api/admin/settlement/reconciliations/:id/report.csv": ["finance"],
  "GET /api/admin/settlement/treasury": ["finance"],
  "GET /api/admin/tax-forms/pub1220": ["finance"],
  "GET /api/admin/tax-forms/runs": ["finance"],
  "GET /api/admin/transactions": ["finance"],
  "POST /api/admin/approvals/:id/approve": ["finance", "compliance"],
  "POST /api/admin/approvals/:id/reject": ["finance", "compliance"],
  "POST /api/admin/incoming-payments": ["finance"],
  "POST /api/admin/savings/rates": ["owner"],
  "POST /api/admin/settlement/deposits/:id/return": ["finance"],
  "POST /api/admin/settlement/payouts/:id/settled-outside": ["finance"],
  "POST /api/admin/settlement/payouts/:id/speed-up": ["finance"],
  "POST /api/admin/settlement/reconciliations": ["finance"],
  "POST /api/admin/settlement/reconciliations/:id/items/:itemId/acknowledge": ["finance"],
  "POST /api/admin/tax-forms/runs": ["finance"],
  "POST /api/admin/transactions": ["finance"],
  "PUT /api/admin/incoming-payments/:id": ["finance"],
  "PUT /api/admin/transactions/:id": ["finance"],
  "PUT /api/admin/users/:userId/balance": ["finance"],
} as const satisfies Readonly<Record<string, readonly StaffRole[]>>;
