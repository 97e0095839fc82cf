import { queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

export const TRANSFER_LIMITS_KEY = ["/api/transfer/limits"] as const;

/** GET /api/transfer/limits: the $2,000 daily limit, what today's transfers used and what remains. */
export function getTransferLimits({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/transfer/limits", {}, { signal });
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
