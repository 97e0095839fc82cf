import { useMutation } from "@tanstack/react-query";
import type { MessageResponse, VerifyEmailInput } from "@/contract/auth";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/verify-email with the 6-digit code from the e-mail. */
export function verifyEmail(input: VerifyEmailInput) {
  return apiRequest<MessageResponse>("POST", "/api/auth/verify-email", input);
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail, meta: { on401: "ignore" } });
}
