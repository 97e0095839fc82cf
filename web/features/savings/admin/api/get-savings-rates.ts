import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SavingsRateHistory } from "@/contract/savings-admin";
import { apiRequest } from "@/web/lib/api";

export const ADMIN_SAVINGS_RATES_KEY = ["/api/admin/savings/rates"] as const;

/** GET /api/admin/savings/rates: every rate with who proposed and decided it, the latest day first. */
export const savingsRatesQuery = queryOptions({
  queryKey: ADMIN_SAVINGS_RATES_KEY,
  queryFn: ({ signal }) =>
    apiRequest<SavingsRateHistory>("GET", ADMIN_SAVINGS_RATES_KEY[0], undefined, { signal }),
});

export function useSavingsRates() {
  return useQuery(savingsRatesQuery);
}
