import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/web/components/ui/use-toast";
import { invalidateOnboarding } from "@/web/features/kyc/admin/api/invalidate-onboarding";
import { callEndpoint } from "@/web/lib/api";

/** PUT /api/admin/kyc/{id}/approve with { notes }: a pending application is approved; notes are optional. */
export function approveKycApplication({ id, notes }: { id: string; notes: string | null }) {
  return callEndpoint("PUT /api/admin/kyc/:id/approve", { params: { id }, body: { notes } });
}

export function useApproveKycApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveKycApplication,
    // The tab shows the spec's session-expired toast itself.
    meta: { on401: "ignore" },
    // The toast comes from the mutation: the refresh moves the application out of its filter, unmounting the row.
    onSuccess: () => {
      toast({ title: "KYC status updated successfully" });
      return invalidateOnboarding(queryClient);
    },
  });
}
