import type { QueryClient } from "@tanstack/react-query";
import { ADMIN_STATS_KEY, ADMIN_USERS_KEY } from "@/web/components/admin/admin-keys";
import { ADMIN_ACCOUNT_REQUESTS_KEY } from "@/web/features/kyc/admin/api/get-account-requests";
import { ADMIN_KYC_APPLICATIONS_KEY } from "@/web/features/kyc/admin/api/get-kyc-applications";

/** Spec §7: after an admin change the related lists and stats are refreshed (a decision can open an account). */
export function invalidateOnboarding(queryClient: QueryClient) {
  return Promise.all(
    [ADMIN_KYC_APPLICATIONS_KEY, ADMIN_ACCOUNT_REQUESTS_KEY, ADMIN_STATS_KEY, ADMIN_USERS_KEY].map(
      (queryKey) => queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
