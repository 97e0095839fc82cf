import { useMutation } from "@tanstack/react-query";
import type { VerifyEmailInput } from "@/contract/auth";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/auth/verify-email with the 6-digit code from the e-mail. */
export function verifyEmail(input: VerifyEmailInput) {
  return callEndpoint("POST /api/auth/verify-email", { body: input });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail, meta: { on401: "ignore" } });
}
