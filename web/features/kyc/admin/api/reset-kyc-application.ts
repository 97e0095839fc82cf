import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isPendingApproval, SENT_FOR_APPROVAL_TOAST } from "@/contract/approvals";
import { toast } from "@/web/components/ui/use-toast";
import { invalidateOnboarding } from "@/web/features/kyc/admin/api/invalidate-onboarding";
import { callEndpoint } from "@/web/lib/api";

/**
 * PUT /api/admin/kyc/{id}/reset with a reason: a rejected application goes back to pending once a second
 * compliance member approves (decision 007; the spec's bodiless call now answers 400 for the missing reason).
 */
export function resetKycApplication({ id, reason }: { id: string; reason: string }) {
  return callEndpoint("PUT /api/admin/kyc/:id/reset", { params: { id }, body: { reason } });
}

export function useResetKycApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetKycApplication,
    // The tab shows the spec's session-expired toast itself.
    meta: { on401: "ignore" },
    // The toast comes from the mutation: the refresh moves the application out of its filter, unmounting the row.
    onSuccess: (result) => {
      toast(
        isPendingApproval(result)
          ? SENT_FOR_APPROVAL_TOAST
          : { title: "KYC status reset to pending successfully" },
      );
      return invalidateOnboarding(queryClient);
    },
  });
}
