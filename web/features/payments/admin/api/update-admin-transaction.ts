import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  isPendingApproval,
  type PendingApprovalResponse,
  SENT_FOR_APPROVAL_TOAST,
} from "@/contract/approvals";
import type { UpdateAdminTransactionInput } from "@/contract/payments";
import type { Transaction } from "@/contract/transactions";
import { toast } from "@/web/components/ui/use-toast";
import { invalidateAdminMoney } from "@/web/features/payments/admin/api/invalidate-admin-money";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** PUT /api/admin/transactions/{id}: status and notes of an admin credit; completed posts the money. */
export function updateAdminTransaction({ id, input }: { id: string; input: UpdateAdminTransactionInput }) {
  return withStepUp(() =>
    apiRequest<Transaction | PendingApprovalResponse>(
      "PUT",
      `/api/admin/transactions/${encodeURIComponent(id)}`,
      input,
    ),
  );
}

export function useUpdateAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAdminTransaction,
    meta: { on401: "ignore" },
    // The toast comes from the mutation, not the dialog or row, which the refresh may unmount.
    onSuccess: (result) => {
      toast(
        isPendingApproval(result)
          ? SENT_FOR_APPROVAL_TOAST
          : { title: "Transaction status updated successfully" },
      );
      return invalidateAdminMoney(queryClient);
    },
  });
}
