import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateAdminTransactionInput } from "@/contract/payments";
import type { Transaction } from "@/contract/transactions";
import { invalidateAdminMoney } from "@/web/features/admin/payments/api/invalidate-admin-money";
import { apiRequest } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** POST /api/admin/transactions: an admin credit (the only type an admin may create). */
export function createAdminTransaction(input: CreateAdminTransactionInput) {
  return withStepUp(() => apiRequest<Transaction>("POST", "/api/admin/transactions", input));
}

export function useCreateAdminTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAdminTransaction,
    meta: { ignoreUnauthorized: true },
    onSuccess: () => invalidateAdminMoney(queryClient),
  });
}
