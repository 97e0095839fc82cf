import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse } from "@/contract/auth";
import { PASSKEYS_KEY } from "@/web/features/auth/api/get-passkeys";
import { SECOND_FACTOR_KEY } from "@/web/features/auth/api/get-second-factor";
import { apiRequest } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";
import { withStepUp } from "@/web/lib/step-up";

/** DELETE /api/auth/passkeys/:id: the passkey stops working at once. */
export function deletePasskey(id: string) {
  return withStepUp(() =>
    apiRequest<MessageResponse>("DELETE", `/api/auth/passkeys/${encodeURIComponent(id)}`),
  );
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
