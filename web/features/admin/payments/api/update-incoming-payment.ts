import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PendingApprovalResponse } from "@/contract/approvals";
import type { UpdateIncomingPaymentInput } from "@/contract/payments";
import type { IncomingPaymentResult } from "@/web/features/admin/payments/api/create-incoming-payment";
import { invalidateAdminMoney } from "@/web/features/admin/payments/api/invalidate-admin-money";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** PUT /api/admin/incoming-payments/{id}: status, notes, date; completing it credits the customer. */
export function updateIncomingPayment({ id, input }: { id: string; input: UpdateIncomingPaymentInput }) {
  return withStepUp(() =>
    apiRequest<IncomingPaymentResult | PendingApprovalResponse>(
      "PUT",
      `/api/admin/incoming-payments/${encodeURIComponent(id)}`,
      input,
    ),
  );
}

export function useUpdateIncomingPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateIncomingPayment,
    meta: { ignoreUnauthorized: true },
    onSuccess: () => invalidateAdminMoney(queryClient),
  });
}
