import { useMutation } from "@tanstack/react-query";
import { getPasskeyLoginOptions } from "@/web/features/auth/api/get-passkey-login-options";
import { callEndpoint, type InputOf } from "@/web/lib/api";
import { getPasskeyAssertion } from "@/web/lib/webauthn";

/** The browser library's assertion, read by the contract as plain JSON (its extension results an open record). */
type Assertion = InputOf<"POST /api/auth/passkey-login">["body"]["response"];

/** Options, the browser's passkey prompt, then POST /api/auth/passkey-login, which sets the session cookie. */
export async function passkeyLogin() {
  const { challengeId, options } = await getPasskeyLoginOptions();
  const response = await getPasskeyAssertion(options);
  return callEndpoint("POST /api/auth/passkey-login", {
    body: { challengeId, response: response as Assertion },
  });
}

export function usePasskeyLogin() {
  // A 401 here means the passkey was not accepted, not a lost session.
  return useMutation({ mutationFn: passkeyLogin, meta: { on401: "ignore" } });
}
