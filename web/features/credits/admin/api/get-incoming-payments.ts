import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

/** GET /api/admin/incoming-payments: incoming payments with their customer, a page at a time. */
export function useIncomingPayments(filter: AdminListFilter) {
  return useAdminList("GET /api/admin/incoming-payments", filter);
}
