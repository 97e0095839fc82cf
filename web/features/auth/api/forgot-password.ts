import { useMutation } from "@tanstack/react-query";
import type { EmailOnlyInput, MessageResponse } from "@/contract/auth";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/forgot-password: e-mails a reset code (the answer is the same for unknown e-mails). */
export function forgotPassword(input: EmailOnlyInput) {
  return apiRequest<MessageResponse>("POST", "/api/auth/forgot-password", input);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword, meta: { on401: "ignore" } });
}
