import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SavingsFinance } from "@/contract/savings-admin";
import { apiRequest } from "@/web/lib/api";

export const ADMIN_SAVINGS_FINANCE_KEY = ["/api/admin/savings/finance"] as const;

/** GET /api/admin/savings/finance: deposits by product, interest by day and month, next month's forecast. */
export const savingsFinanceQuery = queryOptions({
  queryKey: ADMIN_SAVINGS_FINANCE_KEY,
  queryFn: ({ signal }) =>
    apiRequest<SavingsFinance>("GET", ADMIN_SAVINGS_FINANCE_KEY[0], undefined, { signal }),
});

export function useSavingsFinance() {
  return useQuery(savingsFinanceQuery);
}
