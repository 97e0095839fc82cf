import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refreshRecipients } from "@/web/features/recipients/api/save-recipient";
import { callEndpoint } from "@/web/lib/api";

/** PATCH /api/recipients/:id: a new name for one saved recipient. */
export function renameRecipient({ id, name }: { id: string; name: string }) {
  return callEndpoint("PATCH /api/recipients/:id", { params: { id }, body: { name } });
}

export function useRenameRecipient() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: renameRecipient, onSuccess: () => refreshRecipients(queryClient) });
}
