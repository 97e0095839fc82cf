import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refreshRecipients } from "@/web/features/recipients/api/save-recipient";
import { callEndpoint } from "@/web/lib/api";

/** DELETE /api/recipients/:id. */
export function deleteRecipient(id: string) {
  return callEndpoint("DELETE /api/recipients/:id", { params: { id } });
}

export function useDeleteRecipient() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteRecipient, onSuccess: () => refreshRecipients(queryClient) });
}
