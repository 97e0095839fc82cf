import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewKycResponse } from "@/contract/admin-onboarding";
import { toast } from "@/web/components/ui/use-toast";
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
    // The toast comes from the mutation: the refresh moves the application out of its filter, unmounting the row.
    onSuccess: () => {
      toast({ title: "KYC status reset to pending successfully" });
      return invalidateOnboarding(queryClient);
    },
  });
}
