import { useMutation } from "@tanstack/react-query";
import type { EmailOnlyInput, MessageResponse } from "@/contract/auth";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/resend-verification: a fresh sign-up code. */
export function resendVerification(input: EmailOnlyInput) {
  return apiRequest<MessageResponse>("POST", "/api/auth/resend-verification", input);
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification, meta: { on401: "ignore" } });
}
