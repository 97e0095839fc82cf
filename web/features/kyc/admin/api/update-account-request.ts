import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateAccountRequestInput, UpdateAccountRequestResponse } from "@/contract/admin-onboarding";
import { toast } from "@/web/components/ui/use-toast";
import { invalidateOnboarding } from "@/web/features/kyc/admin/api/invalidate-onboarding";
import { apiRequest } from "@/web/lib/api";

/** PUT /api/admin/account-requests/{id}: status, statusMessage, adminNotes; on approved also the numbers. */
export function updateAccountRequest({ id, input }: { id: string; input: UpdateAccountRequestInput }) {
  return apiRequest<UpdateAccountRequestResponse>(
    "PUT",
    `/api/admin/account-requests/${encodeURIComponent(id)}`,
    input,
  );
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
