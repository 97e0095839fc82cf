import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  isPendingApproval,
  type PendingApprovalResponse,
  SENT_FOR_APPROVAL_TOAST,
} from "@/contract/approvals";
import type { IncomingPaymentResult, UpdateIncomingPaymentInput } from "@/contract/credits";
import { invalidateAdminMoney } from "@/web/components/admin/admin-money";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** PUT /api/admin/incoming-payments/{id}: status, notes, date; completing it credits the customer. */
export async function updateIncomingPayment({
  id,
  input,
}: {
  id: string;
  input: UpdateIncomingPaymentInput;
}) {
  // Completing moves money and needs a second factor: the server checks it first (dryRun: nothing written, no
  // factor asked), so a missing reason never costs a code (docs/architecture.md, Maker-checker).
  if (input.status === "completed")
    await callEndpoint("PUT /api/admin/incoming-payments/:id", {
      params: { id },
      body: { ...input, dryRun: true },
    });
  // Not a dry run: the payment (200) or the approval it waits for (202).
  return withStepUp(
    () =>
      callEndpoint("PUT /api/admin/incoming-payments/:id", { params: { id }, body: input }) as Promise<
        IncomingPaymentResult | PendingApprovalResponse
      >,
  );
}

export function useUpdateIncomingPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateIncomingPayment,
    meta: { on401: "ignore" },
    // The toast comes from the mutation: a row leaving its status filter unmounts the dialog that asked.
    onSuccess: (result) => {
      toast(
        isPendingApproval(result)
          ? SENT_FOR_APPROVAL_TOAST
          : {
              title: result.userBalance
                ? `Payment updated successfully. User balance: ${result.userBalance}`
                : "Payment updated successfully",
            },
      );
      return invalidateAdminMoney(queryClient);
    },
  });
}
