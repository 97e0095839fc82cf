import { queryOptions, useQuery } from "@tanstack/react-query";
import { ADMIN_STATS_KEY } from "@/web/components/admin/admin-keys";
import { callEndpoint } from "@/web/lib/api";

/** GET /api/admin/stats: display-ready totals for the four stat cards. */
export function getAdminStats({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/admin/stats", {}, { signal });
}

export const adminStatsQuery = queryOptions({
  queryKey: ADMIN_STATS_KEY,
  queryFn: ({ signal }) => getAdminStats({ signal }),
});

export function useAdminStats({
  enabled = true,
  refetchInterval,
}: {
  enabled?: boolean;
  refetchInterval?: number;
} = {}) {
  return useQuery({ ...adminStatsQuery, enabled, ...(refetchInterval ? { refetchInterval } : {}) });
}
