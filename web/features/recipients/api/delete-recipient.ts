import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse } from "@/contract/auth";
import { refreshRecipients } from "@/web/features/recipients/api/save-recipient";
import { apiRequest } from "@/web/lib/api";

/** DELETE /api/recipients/:id. */
export function deleteRecipient(id: string) {
  return apiRequest<MessageResponse>("DELETE", `/api/recipients/${encodeURIComponent(id)}`);
}

export function useDeleteRecipient() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteRecipient, onSuccess: () => refreshRecipients(queryClient) });
}
