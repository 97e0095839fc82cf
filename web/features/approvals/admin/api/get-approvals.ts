import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

export const ADMIN_APPROVALS_KEY = ["/api/admin/approvals"] as const;

/** GET /api/admin/approvals: pending first, with age and risk signals, a page at a time. */
export function useApprovals(filter: AdminListFilter) {
  // A queue other staff fill: look again every 30 s while the tab is open.
  return useAdminList("GET /api/admin/approvals", filter, { refetchInterval: 30_000 });
}
