import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateRecipientInput } from "@/contract/recipients";
import { ADDRESS_CHECK_KEY } from "@/web/features/recipients/api/check-address";
import { RECIPIENTS_KEY } from "@/web/features/recipients/api/find-recipients";
import { callEndpoint } from "@/web/lib/api";

/**
 * After any change to the book, the list and every address check are stale. Lives in lib: the address book
 * and "Save this recipient" on a transfer's review both save.
 */
export function refreshRecipients(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: RECIPIENTS_KEY });
  void queryClient.invalidateQueries({ queryKey: ADDRESS_CHECK_KEY });
}

/** POST /api/recipients: 409 duplicateRecipient for an address already saved, 422 recipientLimitReached. */
export function saveRecipient(input: CreateRecipientInput) {
  return callEndpoint("POST /api/recipients", { body: input });
}

export function useSaveRecipient() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveRecipient, onSuccess: () => refreshRecipients(queryClient) });
}
