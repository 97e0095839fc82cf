import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminKycApplication } from "@/contract/admin-onboarding";
import { apiRequest } from "@/web/lib/api";

export const ADMIN_KYC_APPLICATIONS_KEY = ["/api/admin/kyc-applications"] as const;

/** GET /api/admin/kyc-applications: every application with its applicant; SSNs masked. */
export function getKycApplications({ signal }: { signal?: AbortSignal } = {}) {
  return apiRequest<AdminKycApplication[]>("GET", "/api/admin/kyc-applications", undefined, { signal });
}

export const kycApplicationsQuery = queryOptions({
  queryKey: ADMIN_KYC_APPLICATIONS_KEY,
  queryFn: ({ signal }) => getKycApplications({ signal }),
  // New applications arrive while the back office is open: read fresh each time the tab opens.
  staleTime: 0,
});

export function useKycApplications({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...kycApplicationsQuery, enabled });
}
