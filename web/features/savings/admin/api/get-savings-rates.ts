import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const ADMIN_SAVINGS_RATES_KEY = ["/api/admin/savings/rates"] as const;

/** GET /api/admin/savings/rates: every rate with who proposed and decided it, the latest day first. */
export const savingsRatesQuery = queryOptions({
  queryKey: ADMIN_SAVINGS_RATES_KEY,
  queryFn: ({ signal }) => callEndpoint("GET /api/admin/savings/rates", {}, { signal }),
});

export function useSavingsRates() {
  return useQuery(savingsRatesQuery);
}
