import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminUser } from "@/contract/admin";
import { apiRequest } from "@/web/lib/api";

export const ADMIN_USERS_KEY = ["/api/admin/users"] as const;

/** GET /api/admin/users: every account, newest first as the server orders them. */
export function getAdminUsers({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<AdminUser[]>("GET", "/api/admin/users", undefined, { signal });
}

export const adminUsersQuery = queryOptions({
  queryKey: ADMIN_USERS_KEY,
  queryFn: ({ signal }) => getAdminUsers({ signal }),
});

export function useAdminUsers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...adminUsersQuery, enabled });
}
