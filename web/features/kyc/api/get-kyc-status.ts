import { queryOptions, useQuery } from "@tanstack/react-query";
import type { KycStatusResponse } from "@/contract/kyc";
import { apiRequest } from "@/web/lib/api";

export const KYC_STATUS_KEY = ["/api/kyc/status"] as const;

/** GET /api/kyc/status: the user's KYC record and account request, each null when there is none. */
export function getKycStatus({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<KycStatusResponse>("GET", "/api/kyc/status", undefined, { signal });
}

export const kycStatusQuery = queryOptions({
  queryKey: KYC_STATUS_KEY,
  queryFn: ({ signal }) => getKycStatus({ signal }),
  // The wizard decides between "apply" and "status" from this: always read it fresh on arrival.
  staleTime: 0,
  // The page shows its own Unauthorized toast and sends the visitor to / (spec §2 /apply-checking).
  meta: { ignoreUnauthorized: true },
});

export function useKycStatus({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...kycStatusQuery, enabled });
}
