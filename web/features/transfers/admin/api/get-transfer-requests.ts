import type { AdminTransferRequest } from "@/contract/transfers";
import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

export const ADMIN_TRANSFER_REQUESTS_KEY = ["/api/admin/transfer-requests"] as const;

/** GET /api/admin/transfer-requests: customers' transfer requests with their customer, a page at a time. */
export function useTransferRequests(filter: AdminListFilter) {
  return useAdminList<AdminTransferRequest>(ADMIN_TRANSFER_REQUESTS_KEY[0], filter);
}
