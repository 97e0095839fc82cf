import { useMutation } from "@tanstack/react-query";
import { callEndpoint } from "@/web/lib/api";
import { withStepUp } from "@/web/lib/step-up";

/** POST /api/auth/totp/enroll: a new secret waiting for its first code (a passkey owner steps up first). */
export function enrollTotp() {
  return withStepUp(() => callEndpoint("POST /api/auth/totp/enroll"));
}

export function useEnrollTotp() {
  return useMutation({ mutationFn: enrollTotp });
}
