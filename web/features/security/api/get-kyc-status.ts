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
  // A review may have happened since the last visit: read it fresh whenever Settings opens.
  staleTime: 0,
});

export function useKycStatus() {
  return useQuery(kycStatusQuery);
}
