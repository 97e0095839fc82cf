import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRANSFER_LIMITS_KEY } from "@/web/features/transfers/api/get-transfer-limits";
import { ACCOUNT_SUMMARY_KEY } from "@/web/lib/account-summary";
import { callEndpoint } from "@/web/lib/api";
import { RECENT_TRANSACTIONS_KEY } from "@/web/lib/recent-transactions";
import { withStepUp } from "@/web/lib/step-up";

/** GET /api/transfer/tag/:tag: the payee's masked name, or the one neutral 404. */
export function lookUpTag(tag: string) {
  return callEndpoint("GET /api/transfer/tag/:tag", { params: { tag: tag.trim() } });
}

export interface PayByTagVariables {
  input: { tag: string; amount: string; note?: string };
  idempotencyKey: string;
}

const AFTER_PAYMENT = [
  ACCOUNT_SUMMARY_KEY,
  RECENT_TRANSACTIONS_KEY,
  ["/api/transactions"],
  TRANSFER_LIMITS_KEY,
];

/** POST /api/transfer/tag-payments: one key per confirmation, so a double click never pays twice. */
export function usePayByTag() {
  const queryClient = useQueryClient();
  return useMutation({
    // A customer with a second factor verifies in the app's step-up dialog (a code or a passkey), then the same
    // payment, with the same key, is sent again.
    mutationFn: ({ input, idempotencyKey }: PayByTagVariables) =>
      withStepUp(() =>
        callEndpoint(
          "POST /api/transfer/tag-payments",
          { body: input },
          { headers: { "Idempotency-Key": idempotencyKey } },
        ),
      ),
    onSuccess: () => {
      for (const queryKey of AFTER_PAYMENT) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
