import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewKycResponse } from "@/contract/admin-onboarding";
import type { PendingApprovalResponse } from "@/contract/approvals";
import { invalidateOnboarding } from "@/web/features/admin/kyc/api/invalidate-onboarding";
import { apiRequest } from "@/web/lib/api";

/**
 * PUT /api/admin/kyc/{id}/reset with a reason: a rejected application goes back to pending once a second
 * compliance member approves (issue 15; the spec's bodiless call now answers 400 for the missing reason).
 */
export function resetKycApplication({ id, reason }: { id: string; reason: string }) {
  return apiRequest<ReviewKycResponse | PendingApprovalResponse>(
    "PUT",
    `/api/admin/kyc/${encodeURIComponent(id)}/reset`,
    { reason },
  );
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
