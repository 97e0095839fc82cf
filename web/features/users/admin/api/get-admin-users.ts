import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

/** GET /api/admin/users: accounts newest first, a page at a time, searched by name, e-mail or $tag. */
export function useAdminUsers(filter: AdminListFilter, options: { enabled?: boolean } = {}) {
  return useAdminList("GET /api/admin/users", filter, options);
}
