import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateIncomingPaymentInput } from "@/contract/payments";
import { toast } from "@/web/components/ui/use-toast";
import type { IncomingPaymentResult } from "@/web/features/admin/payments/api/create-incoming-payment";
import { invalidateAdminMoney } from "@/web/features/admin/payments/api/invalidate-admin-money";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** PUT /api/admin/incoming-payments/{id}: status, notes, date; completing it credits the customer. */
export function updateIncomingPayment({ id, input }: { id: string; input: UpdateIncomingPaymentInput }) {
  return withStepUp(() =>
    apiRequest<IncomingPaymentResult>("PUT", `/api/admin/incoming-payments/${encodeURIComponent(id)}`, input),
  );
}

export function useUpdateIncomingPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateIncomingPayment,
    meta: { ignoreUnauthorized: true },
    // The toast comes from the mutation: a row leaving its status filter unmounts the dialog that asked.
    onSuccess: ({ userBalance }) => {
      toast({
        title: userBalance
          ? `Payment updated successfully. User balance: ${userBalance}`
          : "Payment updated successfully",
      });
      return invalidateAdminMoney(queryClient);
    },
  });
}
