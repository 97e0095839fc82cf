import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

export const ADMIN_ACCOUNT_REQUESTS_KEY = ["/api/admin/account-requests"] as const;

/** GET /api/admin/account-requests: checking-account requests with their applicant, a page at a time. */
export function useAccountRequests(filter: AdminListFilter) {
  return useAdminList("GET /api/admin/account-requests", filter);
}
