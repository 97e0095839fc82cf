import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint, refetchOnMountUnlessFromPage } from "@/web/lib/api";
import { livePoll } from "@/web/lib/live-updates";

export const RECENT_TRANSACTIONS_KEY = ["/api/transactions/recent"] as const;

/** The dashboard polls recent transactions every 5 s (only while the pushed stream is down, decision 034). */
export const RECENT_TRANSACTIONS_POLL_MS = 5_000;

/** GET /api/transactions/recent: the user's latest transactions, newest first. */
export function getRecentTransactions({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/transactions/recent", {}, { signal });
}

export const recentTransactionsQuery = queryOptions({
  queryKey: RECENT_TRANSACTIONS_KEY,
  queryFn: ({ signal }) => getRecentTransactions({ signal }),
  staleTime: 0,
  refetchOnMount: refetchOnMountUnlessFromPage("always"),
});

/** Lives in lib: the dashboard (polling) and analytics (once per visit) both read it. */
export function useRecentTransactions({ poll = false }: { poll?: boolean } = {}) {
  return useQuery({
    ...recentTransactionsQuery,
    refetchInterval: poll ? livePoll(RECENT_TRANSACTIONS_POLL_MS) : false,
  });
}
