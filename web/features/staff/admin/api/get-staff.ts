import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

export const STAFF_KEY = ["/api/admin/staff"] as const;

/** GET /api/admin/staff (owners only): everyone holding a staff role, newest first. */
export function useStaff(filter: AdminListFilter) {
  return useAdminList("GET /api/admin/staff", filter);
}
