import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TotpDisableInput } from "@/contract/security";
import { SECOND_FACTOR_KEY } from "@/web/features/auth/api/get-second-factor";
import { callEndpoint } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";

/** POST /api/auth/totp/disable with the password and a current code. */
export function disableTotp(input: TotpDisableInput) {
  return callEndpoint("POST /api/auth/totp/disable", { body: input });
}

export function useDisableTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTotp,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_KEY });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
