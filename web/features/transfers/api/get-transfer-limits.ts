import { queryOptions, useQuery } from "@tanstack/react-query";
import type { TransferLimits } from "@/contract/transfers";
import { apiRequest } from "@/web/lib/api";

export const TRANSFER_LIMITS_KEY = ["/api/transfer/limits"] as const;

/** GET /api/transfer/limits: the $2,000 daily limit, what today's transfers used and what remains. */
export function getTransferLimits({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<TransferLimits>("GET", "/api/transfer/limits", undefined, { signal });
}

export const transferLimitsQuery = queryOptions({
  queryKey: TRANSFER_LIMITS_KEY,
  queryFn: ({ signal }) => getTransferLimits({ signal }),
  staleTime: 0,
  refetchOnMount: "always",
});

export function useTransferLimits() {
  return useQuery(transferLimitsQuery);
}
