import { useMutation } from "@tanstack/react-query";
import type { MessageResponse, ResetPasswordInput } from "@/contract/auth";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/reset-password with the e-mailed code and the new password. */
export function resetPassword(input: ResetPasswordInput) {
  return apiRequest<MessageResponse>("POST", "/api/auth/reset-password", input);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword, meta: { on401: "ignore" } });
}
