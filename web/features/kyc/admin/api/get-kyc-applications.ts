import { type AdminListFilter, useAdminList } from "@/web/components/admin/admin-list";

export const ADMIN_KYC_APPLICATIONS_KEY = ["/api/admin/kyc-applications"] as const;

/** GET /api/admin/kyc-applications: applications with their applicant (SSNs masked), a page at a time. */
export function useKycApplications(filter: AdminListFilter) {
  return useAdminList("GET /api/admin/kyc-applications", filter);
}
