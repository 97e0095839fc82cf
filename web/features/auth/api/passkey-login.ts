import { useMutation } from "@tanstack/react-query";
import type { LoginResponse } from "@/contract/auth";
import { getPasskeyLoginOptions } from "@/web/features/auth/api/get-passkey-login-options";
import { apiRequest } from "@/web/lib/api";
import { getPasskeyAssertion } from "@/web/lib/webauthn";

/** Options, the browser's passkey prompt, then POST /api/auth/passkey-login, which sets the session cookie. */
export async function passkeyLogin() {
  const { challengeId, options } = await getPasskeyLoginOptions();
  const response = await getPasskeyAssertion(options);
  return apiRequest<LoginResponse>("POST", "/api/auth/passkey-login", { challengeId, response });
}

export function usePasskeyLogin() {
  // A 401 here means the passkey was not accepted, not a lost session.
  return useMutation({ mutationFn: passkeyLogin, meta: { on401: "ignore" } });
}
