import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewKycResponse } from "@/contract/admin-onboarding";
import { invalidateOnboarding } from "@/web/features/admin/kyc/api/invalidate-onboarding";
import { apiRequest } from "@/web/lib/api";

/** PUT /api/admin/kyc/{id}/reset (no body): a rejected application goes back to pending. */
export function resetKycApplication(id: string) {
  return apiRequest<ReviewKycResponse>("PUT", `/api/admin/kyc/${encodeURIComponent(id)}/reset`);
}

export function useResetKycApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetKycApplication,
    // The tab shows the spec's session-expired toast itself.
    meta: { ignoreUnauthorized: true },
    onSuccess: () => invalidateOnboarding(queryClient),
  });
}
