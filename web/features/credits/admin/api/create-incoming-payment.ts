import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  isPendingApproval,
  type PendingApprovalResponse,
  SENT_FOR_APPROVAL_TOAST,
} from "@/contract/approvals";
import type { CreateIncomingPaymentInput, IncomingPaymentResult } from "@/contract/credits";
import { invalidateAdminMoney } from "@/web/components/admin/admin-money";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/**
 * POST /api/admin/incoming-payments: blank text fields get the spec's defaults on the server too. Completing one
 * needs a second factor, so the server checks it first (`dryRun`: nothing written, no factor asked) and a bad
 * amount or a missing reason is refused before anyone types a code.
 */
export async function createIncomingPayment(input: CreateIncomingPaymentInput) {
  if (input.status === "completed") {
    await callEndpoint("POST /api/admin/incoming-payments", { body: { ...input, dryRun: true } });
  }
  // Not a dry run: the payment (201) or the approval it waits for (202).
  return withStepUp(
    () =>
      callEndpoint("POST /api/admin/incoming-payments", { body: input }) as Promise<
        IncomingPaymentResult | PendingApprovalResponse
      >,
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
