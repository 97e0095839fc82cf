import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminAccountRequest } from "@/contract/admin-onboarding";
import { apiRequest } from "@/web/lib/api";

export const ADMIN_ACCOUNT_REQUESTS_KEY = ["/api/admin/account-requests"] as const;

/** GET /api/admin/account-requests: every checking-account request with its applicant. */
export function getAccountRequests({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<AdminAccountRequest[]>("GET", "/api/admin/account-requests", undefined, { signal });
}

export const accountRequestsQuery = queryOptions({
  queryKey: ADMIN_ACCOUNT_REQUESTS_KEY,
  queryFn: ({ signal }) => getAccountRequests({ signal }),
  // New requests arrive while the back office is open: read fresh each time the tab opens.
  staleTime: 0,
});

export function useAccountRequests({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...accountRequestsQuery, enabled });
}
