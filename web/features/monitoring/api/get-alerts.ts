import { queryOptions, useQuery } from "@tanstack/react-query";
import type { MonitoringAlert } from "@/contract/monitoring";
import type { Page } from "@/contract/pages";
import { apiRequest } from "@/web/lib/api";

const ALERTS = "/api/admin/monitoring/alerts";

/** GET /api/admin/monitoring/alerts[?caseId=…]: newest first. */
export const alertsQuery = (caseId: string | null) =>
  queryOptions({
    queryKey: [ALERTS, caseId],
    queryFn: ({ signal }) =>
      apiRequest<Page<MonitoringAlert>>(
        "GET",
        caseId ? `${ALERTS}?caseId=${encodeURIComponent(caseId)}` : ALERTS,
        undefined,
        { signal },
      ),
    staleTime: 0,
  });
export const useAlerts = (caseId: string | null) => useQuery(alertsQuery(caseId));
