import { useMutation, useQueryClient } from "@tanstack/react-query";
import { SECOND_FACTOR_KEY } from "@/web/features/auth/api/get-second-factor";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** POST /api/auth/recovery-codes: ten new codes replace the old ones, after a fresh step-up. */
export function regenerateRecoveryCodes() {
  return withStepUp(() => callEndpoint("POST /api/auth/recovery-codes"));
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_KEY }),
  });
}
