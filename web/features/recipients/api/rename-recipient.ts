import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RecipientResponse } from "@/contract/recipients";
import { refreshRecipients } from "@/web/features/recipients/api/save-recipient";
import { apiRequest } from "@/web/lib/api";

/** PATCH /api/recipients/:id: a new name for one saved recipient. */
export function renameRecipient({ id, name }: { id: string; name: string }) {
  return apiRequest<RecipientResponse>("PATCH", `/api/recipients/${encodeURIComponent(id)}`, { name });
}

export function useRenameRecipient() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: renameRecipient, onSuccess: () => refreshRecipients(queryClient) });
}
