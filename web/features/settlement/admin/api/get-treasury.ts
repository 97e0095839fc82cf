import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const ADMIN_TREASURY_KEY = ["/api/admin/settlement/treasury"] as const;

/** GET /api/admin/settlement/treasury: sweeps, movements to cold and returns, the hot wallet's forecast. */
export const treasuryQuery = queryOptions({
  queryKey: ADMIN_TREASURY_KEY,
  queryFn: ({ signal }) => callEndpoint("GET /api/admin/settlement/treasury", {}, { signal }),
  refetchInterval: 15_000,
});

export function useTreasury() {
  return useQuery(treasuryQuery);
}
