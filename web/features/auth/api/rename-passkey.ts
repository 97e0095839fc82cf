import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PasskeyInfo } from "@/contract/passkeys";
import { PASSKEYS_KEY } from "@/web/features/auth/api/get-passkeys";
import { apiRequest } from "@/web/lib/api";

/** PATCH /api/auth/passkeys/:id: a new name for one of the user's passkeys. */
export function renamePasskey({ id, name }: { id: string; name: string }) {
  return apiRequest<PasskeyInfo>("PATCH", `/api/auth/passkeys/${encodeURIComponent(id)}`, { name });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renamePasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}
