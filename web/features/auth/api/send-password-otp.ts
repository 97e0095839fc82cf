import { useMutation } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/auth/send-password-otp (no body): e-mails the code that confirms a password change. */
export function sendPasswordOtp() {
  return callEndpoint("POST /api/auth/send-password-otp");
}

export function useSendPasswordOtp() {
  return useMutation({ mutationFn: sendPasswordOtp });
}
