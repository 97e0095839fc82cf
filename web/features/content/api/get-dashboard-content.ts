import { queryOptions, useQuery } from "@tanstack/react-query";
import type { DashboardContent } from "@/contract/dashboard-content";
import { apiRequest, refetchOnMountUnlessFromPage } from "@/web/lib/api";

export const DASHBOARD_CONTENT_KEY = ["/api/dashboard-content"] as const;

/** GET /api/dashboard-content: the dashboard's 11 labels, with the spec's defaults already filled in. */
export function getDashboardContent({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<DashboardContent>("GET", "/api/dashboard-content", undefined, { signal });
}

/** Refetched on each visit so an admin's edit shows the next time the user opens the dashboard. */
export const dashboardContentQuery = queryOptions({
  queryKey: DASHBOARD_CONTENT_KEY,
  queryFn: ({ signal }) => getDashboardContent({ signal }),
  staleTime: 0,
  refetchOnMount: refetchOnMountUnlessFromPage(true),
});

export function useDashboardContent() {
  return useQuery(dashboardContentQuery);
}
