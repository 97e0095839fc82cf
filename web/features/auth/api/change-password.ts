import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ChangePasswordInput } from "@/contract/auth";
import { SESSIONS_KEY } from "@/web/features/auth/api/get-sessions";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** POST /api/auth/change-password with the current password and the e-mailed code (and a step-up when 2FA is on). */
export function changePassword(input: ChangePasswordInput) {
  return withStepUp(() => callEndpoint("POST /api/auth/change-password", { body: input }));
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // A password change signs out other sessions, so the list is out of date.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });
}
