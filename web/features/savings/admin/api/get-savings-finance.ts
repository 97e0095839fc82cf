import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const ADMIN_SAVINGS_FINANCE_KEY = ["/api/admin/savings/finance"] as const;

/** GET /api/admin/savings/finance: deposits by product, interest by day and month, next month's forecast. */
export const savingsFinanceQuery = queryOptions({
  queryKey: ADMIN_SAVINGS_FINANCE_KEY,
  queryFn: ({ signal }) => callEndpoint("GET /api/admin/savings/finance", {}, { signal }),
});

export function useSavingsFinance() {
  return useQuery(savingsFinanceQuery);
}
