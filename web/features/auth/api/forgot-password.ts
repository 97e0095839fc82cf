import { useMutation } from "@tanstack/react-query";
import type { EmailOnlyInput } from "@/contract/auth";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/auth/forgot-password: e-mails a reset code (the answer is the same for unknown e-mails). */
export function forgotPassword(input: EmailOnlyInput) {
  return callEndpoint("POST /api/auth/forgot-password", { body: input });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword, meta: { on401: "ignore" } });
}
