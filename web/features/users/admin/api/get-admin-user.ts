import { queryOptions, useQuery } from "@tanstack/react-query";
import { ADMIN_USERS_KEY } from "@/web/components/admin/admin-keys";
import { callEndpoint } from "@/web/lib/api";

/** GET /api/admin/users/:userId: one account. Keyed under the list so list invalidation refreshes it too. */
export function getAdminUser(userId: string, { signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/admin/users/:userId", { params: { userId } }, { signal });
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
