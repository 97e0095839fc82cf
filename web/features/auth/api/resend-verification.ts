import { useMutation } from "@tanstack/react-query";
import type { EmailOnlyInput } from "@/contract/auth";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/auth/resend-verification: a fresh sign-up code. */
export function resendVerification(input: EmailOnlyInput) {
  return callEndpoint("POST /api/auth/resend-verification", { body: input });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification, meta: { on401: "ignore" } });
}
