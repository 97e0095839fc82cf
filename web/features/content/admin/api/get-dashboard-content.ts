import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const ADMIN_DASHBOARD_CONTENT_KEY = ["/api/admin/dashboard-content"] as const;

/** GET /api/admin/dashboard-content/{userId}: the customer's dashboard texts, defaults filled in. */
export function getDashboardContent(userId: string, { signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/admin/dashboard-content/:userId", { params: { userId } }, { signal });
}

export function dashboardContentQuery(userId: string) {
  return queryOptions({
    queryKey: [...ADMIN_DASHBOARD_CONTENT_KEY, userId],
    queryFn: ({ signal }) => getDashboardContent(userId, { signal }),
  });
}

export function useDashboardContent(userId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...dashboardContentQuery(userId), enabled });
}
