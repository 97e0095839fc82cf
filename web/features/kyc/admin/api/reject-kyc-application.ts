import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/web/components/ui/use-toast";
import { invalidateOnboarding } from "@/web/features/kyc/admin/api/invalidate-onboarding";
import { callEndpoint } from "@/web/lib/api";

/** PUT /api/admin/kyc/{id}/reject with { notes }: a pending application is rejected; the reason is required. */
export function rejectKycApplication({ id, notes }: { id: string; notes: string | null }) {
  return callEndpoint("PUT /api/admin/kyc/:id/reject", { params: { id }, body: { notes } });
}

export function useRejectKycApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectKycApplication,
    // The tab shows the spec's session-expired toast itself.
    meta: { on401: "ignore" },
    // The toast comes from the mutation: the refresh moves the application out of its filter, unmounting the row.
    onSuccess: () => {
      toast({ title: "KYC status updated successfully" });
      return invalidateOnboarding(queryClient);
    },
  });
}
