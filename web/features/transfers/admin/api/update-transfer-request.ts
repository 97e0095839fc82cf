import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isPendingApproval, SENT_FOR_APPROVAL_TOAST } from "@/contract/approvals";
import type { UpdateTransferInput } from "@/contract/transfers";
import { invalidateAdminMoney } from "@/web/components/admin/admin-money";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";

/**
 * PUT /api/admin/transfer-requests/{id}: one of the five statuses, or the quick approved/rejected. A flagged
 * transfer moving anywhere but cancelled or failed waits for a second staff member (202 "Sent for approval").
 */
export function updateTransferRequest({ id, input }: { id: string; input: UpdateTransferInput }) {
  return callEndpoint("PUT /api/admin/transfer-requests/:id", { params: { id }, body: input });
}

export function useUpdateTransferRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTransferRequest,
    // The tab shows the spec's session-expired toast itself.
    meta: { on401: "ignore" },
    // The toast comes from the mutation, not the dialog or row, which the refresh may unmount.
    onSuccess: (result) => {
      toast(
        isPendingApproval(result)
          ? SENT_FOR_APPROVAL_TOAST
          : { title: "Transfer request updated successfully" },
      );
      return invalidateAdminMoney(queryClient);
    },
  });
}
