import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateAccountRequestInput } from "@/contract/admin-onboarding";
import { toast } from "@/web/components/ui/use-toast";
import { invalidateOnboarding } from "@/web/features/kyc/admin/api/invalidate-onboarding";
import { callEndpoint } from "@/web/lib/api";

/** PUT /api/admin/account-requests/{id}: status, statusMessage, adminNotes; on approved also the numbers. */
export function updateAccountRequest({ id, input }: { id: string; input: UpdateAccountRequestInput }) {
  return callEndpoint("PUT /api/admin/account-requests/:id", { params: { id }, body: input });
}

export function useUpdateAccountRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccountRequest,
    // The tab shows the spec's session-expired toast itself.
    meta: { on401: "ignore" },
    // The toast comes from the mutation, not the dialog: the refresh may unmount the row that opened it.
    onSuccess: () => {
      toast({ title: "Account request updated successfully" });
      return invalidateOnboarding(queryClient);
    },
  });
}
