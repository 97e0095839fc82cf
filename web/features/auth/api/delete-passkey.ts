import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PASSKEYS_KEY } from "@/web/features/auth/api/get-passkeys";
import { SECOND_FACTOR_KEY } from "@/web/features/auth/api/get-second-factor";
import { callEndpoint } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";
import { withStepUp } from "@/web/lib/step-up";

/** DELETE /api/auth/passkeys/:id: the passkey stops working at once. */
export function deletePasskey(id: string) {
  return withStepUp(() => callEndpoint("DELETE /api/auth/passkeys/:id", { params: { id } }));
}

export function useDeletePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePasskey,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
      void queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_KEY });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
