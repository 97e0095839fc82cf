import type { AdminTransaction } from "@/contract/credits";
import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

export type { AdminTransaction };

/** GET /api/admin/transactions: every customer's transactions with the customer's e-mail, a page at a time. */
export function useAdminTransactions(filter: AdminListFilter) {
  return useAdminList("GET /api/admin/transactions", filter);
}
