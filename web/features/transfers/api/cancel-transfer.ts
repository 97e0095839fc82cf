import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRANSFER_LIMITS_KEY } from "@/web/features/transfers/api/get-transfer-limits";
import { transferReceiptKey } from "@/web/features/transfers/api/get-transfer-receipt";
import { ACCOUNT_SUMMARY_KEY } from "@/web/lib/account-summary";
import { callEndpoint } from "@/web/lib/api";
import { RECENT_TRANSACTIONS_KEY } from "@/web/lib/recent-transactions";

/** POST /api/transfers/{id}/cancel (bodiless): releases the hold while the transfer is still pending. */
export function cancelTransfer(id: string) {
  return callEndpoint("POST /api/transfers/:id/cancel", { params: { id } });
}

export function useCancelTransfer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelTransfer(id),
    onSuccess: (data) => {
      queryClient.setQueryData(transferReceiptKey(id), data.receipt);
      for (const queryKey of [RECENT_TRANSACTIONS_KEY, ACCOUNT_SUMMARY_KEY, TRANSFER_LIMITS_KEY]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
    // Refused (staff moved it meanwhile): show what it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: transferReceiptKey(id) }),
  });
}
