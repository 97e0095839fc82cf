import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint, hrefOf } from "@/web/lib/api";

export const ADMIN_SETTLEMENT_KEY = ["/api/admin/settlement"] as const;
export const ADMIN_RECONCILIATIONS_KEY = ["/api/admin/settlement/reconciliations"] as const;

/** GET /api/admin/settlement: the hot wallet, payouts and deposits (or "settlement is manual"). */
export const settlementOverviewQuery = queryOptions({
  queryKey: ADMIN_SETTLEMENT_KEY,
  queryFn: ({ signal }) => callEndpoint("GET /api/admin/settlement", {}, { signal }),
  // Confirmations and ages move with every block: read again while the tab is open.
  refetchInterval: 15_000,
});

export function useSettlementOverview() {
  return useQuery(settlementOverviewQuery);
}

/** GET /api/admin/settlement/reconciliations: the latest reconciliation reports, newest first. */
export const reconciliationsQuery = queryOptions({
  queryKey: ADMIN_RECONCILIATIONS_KEY,
  queryFn: ({ signal }) => callEndpoint("GET /api/admin/settlement/reconciliations", {}, { signal }),
});

export function useReconciliations(enabled: boolean) {
  return useQuery({ ...reconciliationsQuery, enabled });
}

/** Where a report downloads as CSV. */
export const reconciliationCsvPath = (id: string) =>
  hrefOf("GET /api/admin/settlement/reconciliations/:id/report.csv", { params: { id } });
