import { useMutation } from "@tanstack/react-query";
import type { ResetPasswordInput } from "@/contract/auth";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/auth/reset-password with the e-mailed code and the new password. */
export function resetPassword(input: ResetPasswordInput) {
  return callEndpoint("POST /api/auth/reset-password", { body: input });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword, meta: { on401: "ignore" } });
}
