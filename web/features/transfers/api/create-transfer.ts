import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateTransferInput } from "@/contract/transfers";
import { TRANSFER_LIMITS_KEY } from "@/web/features/transfers/api/get-transfer-limits";
import { ACCOUNT_SUMMARY_KEY } from "@/web/lib/account-summary";
import { callEndpoint } from "@/web/lib/api";
import { RECENT_TRANSACTIONS_KEY } from "@/web/lib/recent-transactions";

export interface CreateTransferVariables {
  input: CreateTransferInput;
  /** One key per form submission: a double click or a retry replays the first answer, never a second transfer. */
  idempotencyKey: string;
}

// The admin screens read these; named here rather than imported so one feature never imports another.
const ADMIN_KEYS = [["/api/admin/transactions"], ["/api/admin/users"], ["/api/admin/stats"]];

/** POST /api/transfer/request. */
export function createTransfer({ input, idempotencyKey }: CreateTransferVariables) {
  return callEndpoint(
    "POST /api/transfer/request",
    { body: input },
    { headers: { "Idempotency-Key": idempotencyKey } },
  );
}

/** Spec §7: afterwards recent transactions, the account summary, the limits and the admin lists refresh. */
export function useCreateTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTransfer,
    onSuccess: () => {
      // Not awaited: the success screen should not wait for the refetches.
      for (const queryKey of [
        RECENT_TRANSACTIONS_KEY,
        ACCOUNT_SUMMARY_KEY,
        TRANSFER_LIMITS_KEY,
        ...ADMIN_KEYS,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
