import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PASSKEYS_KEY } from "@/web/features/auth/api/get-passkeys";
import { callEndpoint } from "@/web/lib/api";

/** PATCH /api/auth/passkeys/:id: a new name for one of the user's passkeys. */
export function renamePasskey({ id, name }: { id: string; name: string }) {
  return callEndpoint("PATCH /api/auth/passkeys/:id", { params: { id }, body: { name } });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renamePasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}
