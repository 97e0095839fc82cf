import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint, refetchOnMountUnlessFromPage } from "@/web/lib/api";

export const ACCOUNT_SUMMARY_KEY = ["/api/account/summary"] as const;

/** GET /api/account/summary: balances plus the onboarding records. Lives in lib: accounts and transfers both read it. */
export function getAccountSummary({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/account/summary", {}, { signal });
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
