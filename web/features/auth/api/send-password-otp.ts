import { useMutation } from "@tanstack/react-query";
import type { SendCodeResponse } from "@/contract/auth";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/send-password-otp (no body): e-mails the code that confirms a password change. */
export function sendPasswordOtp() {
  return apiRequest<SendCodeResponse>("POST", "/api/auth/send-password-otp");
}

export function useSendPasswordOtp() {
  return useMutation({ mutationFn: sendPasswordOtp });
}
