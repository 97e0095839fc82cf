import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

/** GET /api/admin/transfer-requests: customers' transfer requests with their customer, a page at a time. */
export function useTransferRequests(filter: AdminListFilter) {
  return useAdminList("GET /api/admin/transfer-requests", filter);
}
