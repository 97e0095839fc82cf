import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  isPendingApproval,
  type PendingApprovalResponse,
  SENT_FOR_APPROVAL_TOAST,
} from "@/contract/approvals";
import type { CreateAdminTransactionInput, MoneyDryRunResponse } from "@/contract/payments";
import type { Transaction } from "@/contract/transactions";
import { invalidateAdminMoney } from "@/web/components/admin/admin-money";
import { toast } from "@/web/components/ui/use-toast";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/transactions: an admin credit (the only type an admin may create). It needs a second factor,
 * so the server checks it first (`dryRun`: nothing written, no factor asked): a refusal never costs a code.
 */
export async function createAdminTransaction(input: CreateAdminTransactionInput) {
  await apiRequest<MoneyDryRunResponse>("POST", "/api/admin/transactions", { ...input, dryRun: true });
  return withStepUp(() =>
    apiRequest<Transaction | PendingApprovalResponse>("POST", "/api/admin/transactions", input),
  );
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
