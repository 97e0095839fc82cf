import { queryOptions, useQuery } from "@tanstack/react-query";
import type { TreasuryOverview } from "@/contract/treasury";
import { apiRequest } from "@/web/lib/api";

export const ADMIN_TREASURY_KEY = ["/api/admin/settlement/treasury"] as const;

/** GET /api/admin/settlement/treasury: sweeps, movements to cold and returns, the hot wallet's forecast. */
export const treasuryQuery = queryOptions({
  queryKey: ADMIN_TREASURY_KEY,
  queryFn: ({ signal }) => apiRequest<TreasuryOverview>("GET", ADMIN_TREASURY_KEY[0], undefined, { signal }),
  refetchInterval: 15_000,
});

export function useTreasury() {
  return useQuery(treasuryQuery);
}
