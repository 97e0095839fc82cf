import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminUser } from "@/contract/admin";
import { ADMIN_USERS_KEY } from "@/web/components/admin/admin-keys";
import { apiRequest } from "@/web/lib/api";

/** GET /api/admin/users/:userId: one account. Keyed under the list so list invalidation refreshes it too. */
export function getAdminUser(userId: string, { signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<AdminUser>("GET", `/api/admin/users/${encodeURIComponent(userId)}`, undefined, {
    signal,
  });
}

export function adminUserQuery(userId: string) {
  return queryOptions({
    queryKey: [...ADMIN_USERS_KEY, userId],
    queryFn: ({ signal }) => getAdminUser(userId, { signal }),
  });
}

export function useAdminUser(userId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...adminUserQuery(userId), enabled });
}
