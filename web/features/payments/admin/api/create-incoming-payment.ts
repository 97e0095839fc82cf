import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  isPendingApproval,
  type PendingApprovalResponse,
  SENT_FOR_APPROVAL_TOAST,
} from "@/contract/approvals";
import type { CreateIncomingPaymentInput, IncomingPayment, MoneyDryRunResponse } from "@/contract/payments";
import { invalidateAdminMoney } from "@/web/components/admin/admin-money";
import { toast } from "@/web/components/ui/use-toast";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** The create and update answers: the payment, plus the customer's new balance when money moved. */
export interface IncomingPaymentResult {
  payment: IncomingPayment;
  userBalance?: string;
}

/**
 * POST /api/admin/incoming-payments: blank text fields get the spec's defaults on the server too. Completing one
 * needs a second factor, so the server checks it first (`dryRun`: nothing written, no factor asked) and a bad
 * amount or a missing reason is refused before anyone types a code.
 */
export async function createIncomingPayment(input: CreateIncomingPaymentInput) {
  if (input.status === "completed") {
    await apiRequest<MoneyDryRunResponse>("POST", "/api/admin/incoming-payments", { ...input, dryRun: true });
  }
  return withStepUp(() =>
    apiRequest<IncomingPaymentResult | PendingApprovalResponse>(
      "POST",
      "/api/admin/incoming-payments",
      input,
    ),
  );
}

export function useCreateIncomingPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createIncomingPayment,
    meta: { on401: "ignore" },
    // The toast comes from the mutation, not the dialog, which closes (or unmounts) meanwhile.
    onSuccess: (result) => {
      toast(
        isPendingApproval(result)
          ? SENT_FOR_APPROVAL_TOAST
          : {
              title: "Incoming payment created successfully",
              description: result.userBalance ? `User balance: ${result.userBalance}` : undefined,
            },
      );
      return invalidateAdminMoney(queryClient);
    },
  });
}
