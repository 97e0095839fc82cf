import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

const ALERTS = "/api/admin/monitoring/alerts";

/** GET /api/admin/monitoring/alerts[?caseId=…]: newest first. */
export const alertsQuery = (caseId: string | null) =>
  queryOptions({
    queryKey: [ALERTS, caseId],
    queryFn: ({ signal }) =>
      callEndpoint(
        "GET /api/admin/monitoring/alerts",
        { query: { caseId: caseId ?? undefined } },
        { signal },
      ),
    staleTime: 0,
  });
export const useAlerts = (caseId: string | null) => useQuery(alertsQuery(caseId));
