import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Transaction } from "@/contract/transactions";
import { apiRequest } from "@/web/lib/api";

export type AdminTransaction = Transaction & { userEmail: string | null };

export const ADMIN_TRANSACTIONS_KEY = ["/api/admin/transactions"] as const;

/** GET /api/admin/transactions: the latest transactions of every customer, newest first. */
export function getAdminTransactions({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<AdminTransaction[]>("GET", "/api/admin/transactions", undefined, { signal });
}

export const adminTransactionsQuery = queryOptions({
  queryKey: ADMIN_TRANSACTIONS_KEY,
  queryFn: ({ signal }) => getAdminTransactions({ signal }),
  staleTime: 0,
});

export function useAdminTransactions() {
  return useQuery(adminTransactionsQuery);
}
