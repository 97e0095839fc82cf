import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TotpConfirmInput } from "@/contract/security";
import { SECOND_FACTOR_KEY } from "@/web/features/auth/api/get-second-factor";
import { callEndpoint } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";

/** POST /api/auth/totp/confirm: the first code turns the authenticator on and returns the recovery codes. */
export function confirmTotp(input: TotpConfirmInput) {
  return callEndpoint("POST /api/auth/totp/confirm", { body: input });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmTotp,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_KEY });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
