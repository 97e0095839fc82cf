import { type QueryMeta, queryOptions, useQuery } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";
import { livePoll } from "@/web/lib/live-updates";

export const KYC_STATUS_KEY = ["/api/kyc/status"] as const;

/** Spec §9: the dashboard polls the KYC status every 10 s. */
export const KYC_STATUS_POLL_MS = 10_000;

/** GET /api/kyc/status: the user's KYC record and account request, each null when there is none. */
export function getKycStatus({ signal }: { signal?: AbortSignal } = {}) {
  return callEndpoint("GET /api/kyc/status", {}, { signal });
}

export const kycStatusQuery = queryOptions({
  queryKey: KYC_STATUS_KEY,
  queryFn: ({ signal }) => getKycStatus({ signal }),
});

export interface KycStatusReadOptions {
  enabled?: boolean;
  /** Spec §9: the dashboard polls (`KYC_STATUS_POLL_MS`). */
  refetchInterval?: number;
  /** 0 reads it fresh whenever the screen opens. */
  staleTime?: number;
  meta?: QueryMeta;
}

/** Lives in lib: the dashboard, the application page and Settings all read it, each with its own freshness. */
export function useKycStatus({ refetchInterval, ...options }: KycStatusReadOptions = {}) {
  // Polled only while the pushed stream is down (decision 034).
  return useQuery({
    ...kycStatusQuery,
    ...options,
    ...(refetchInterval ? { refetchInterval: livePoll(refetchInterval) } : {}),
  });
}
