import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AccountSummary } from "@/contract/transactions";
import { apiRequest, refetchOnMountUnlessFromPage } from "@/web/lib/api";

export const ACCOUNT_SUMMARY_KEY = ["/api/account/summary"] as const;

/** GET /api/account/summary: balances plus the onboarding records. Lives in lib: accounts and transfers both read it. */
export function getAccountSummary({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<AccountSummary>("GET", "/api/account/summary", undefined, { signal });
}

/** Always stale, refetched whenever a screen that shows it mounts. */
export const accountSummaryQuery = queryOptions({
  queryKey: ACCOUNT_SUMMARY_KEY,
  queryFn: ({ signal }) => getAccountSummary({ signal }),
  staleTime: 0,
  refetchOnMount: refetchOnMountUnlessFromPage("always"),
});

export function useAccountSummary() {
  return useQuery(accountSummaryQuery);
}
