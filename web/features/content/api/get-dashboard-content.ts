import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint, refetchOnMountUnlessFromPage } from "@/web/lib/api";

export const DASHBOARD_CONTENT_KEY = ["/api/dashboard-content"] as const;

/** GET /api/dashboard-content: the dashboard's 11 labels, with the spec's defaults already filled in. */
export function getDashboardContent({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/dashboard-content", {}, { signal });
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
