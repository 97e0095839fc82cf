import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isPendingApproval, SENT_FOR_APPROVAL_TOAST } from "@/contract/approvals";
import type { UpdateAdminTransactionInput } from "@/contract/credits";
import { invalidateAdminMoney } from "@/web/components/admin/admin-money";
import { toast } from "@/web/components/ui/use-toast";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** PUT /api/admin/transactions/{id}: status and notes of an admin credit; completed posts the money. */
export async function updateAdminTransaction({
  id,
  input,
}: {
  id: string;
  input: UpdateAdminTransactionInput;
}) {
  // Completing moves money and needs a second factor: the server checks it first (dryRun: nothing written, no
  // factor asked), so a missing reason never costs a code (docs/architecture.md, Maker-checker).
  if (input.status === "completed")
    await callEndpoint("PUT /api/admin/transactions/:id", {
      params: { id },
      body: { ...input, dryRun: true },
    });
  return withStepUp(() => callEndpoint("PUT /api/admin/transactions/:id", { params: { id }, body: input }));
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
