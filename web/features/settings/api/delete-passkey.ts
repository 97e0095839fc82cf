import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse } from "@/contract/auth";
import { PASSKEYS_KEY } from "@/web/features/settings/api/get-passkeys";
import { apiRequest } from "@/web/lib/api";

/** DELETE /api/auth/passkeys/:id: the passkey stops working at once. */
export function deletePasskey(id: string) {
  return apiRequest<MessageResponse>("DELETE", `/api/auth/passkeys/${encodeURIComponent(id)}`);
}

export function useDeletePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePasskey,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
    },
  });
}
