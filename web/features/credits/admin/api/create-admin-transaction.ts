import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isPendingApproval, SENT_FOR_APPROVAL_TOAST } from "@/contract/approvals";
import type { CreateAdminTransactionInput } from "@/contract/credits";
import { invalidateAdminMoney } from "@/web/components/admin/admin-money";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/transactions: an admin credit (the only type an admin may create). It needs a second factor,
 * so the server checks it first (`dryRun`: nothing written, no factor asked): a refusal never costs a code.
 */
export async function createAdminTransaction(input: CreateAdminTransactionInput) {
  await callEndpoint("POST /api/admin/transactions", { body: { ...input, dryRun: true } });
  return withStepUp(() => callEndpoint("POST /api/admin/transactions", { body: input }));
}

export function useCreateAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAdminTransaction,
    meta: { on401: "ignore" },
    // The toast comes from the mutation, not the dialog or row, which the refresh may unmount.
    onSuccess: (result) => {
      toast(
        isPendingApproval(result)
          ? SENT_FOR_APPROVAL_TOAST
          : { title: "Incoming transaction created successfully" },
      );
      return invalidateAdminMoney(queryClient);
    },
  });
}
