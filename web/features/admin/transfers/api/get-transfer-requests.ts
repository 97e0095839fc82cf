import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminTransferRequest } from "@/contract/transfers";
import { apiRequest } from "@/web/lib/api";

export const ADMIN_TRANSFER_REQUESTS_KEY = ["/api/admin/transfer-requests"] as const;

/** GET /api/admin/transfer-requests: every customer transfer request with its customer, newest first. */
export function getTransferRequests({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<AdminTransferRequest[]>("GET", "/api/admin/transfer-requests", undefined, { signal });
}

export const transferRequestsQuery = queryOptions({
  queryKey: ADMIN_TRANSFER_REQUESTS_KEY,
  queryFn: ({ signal }) => getTransferRequests({ signal }),
  // Customers submit while the back office is open: read fresh each time the tab opens.
  staleTime: 0,
});

export function useTransferRequests() {
  return useQuery(transferRequestsQuery);
}
