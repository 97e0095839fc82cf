import { useMutation, useQueryClient } from "@tanstack/react-query";
import { getPasskeyRegistrationOptions } from "@/web/features/auth/api/get-passkey-registration-options";
import { PASSKEYS_KEY } from "@/web/features/auth/api/get-passkeys";
import { SECOND_FACTOR_KEY } from "@/web/features/auth/api/get-second-factor";
import { callEndpoint, type InputOf } from "@/web/lib/api";
import { CURRENT_USER_KEY } from "@/web/lib/current-user";
import { withStepUp } from "@/web/lib/step-up";
import { createPasskey } from "@/web/lib/webauthn";

/** The browser library's attestation, read by the contract as plain JSON (its extension results an open record). */
type Attestation = InputOf<"POST /api/auth/passkeys">["body"]["response"];

/** The whole ceremony: options from the server, the authenticator's answer, then POST /api/auth/passkeys. */
export async function registerPasskey(name: string) {
  // Adding to an account that already has a factor needs a fresh proof of one (the step-up dialog).
  const options = await withStepUp(() => getPasskeyRegistrationOptions());
  const response = await createPasskey(options);
  return callEndpoint("POST /api/auth/passkeys", { body: { name, response: response as Attestation } });
}

export function useRegisterPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerPasskey,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
      // The account may have just gained its first factor: the security status and the user change too.
      void queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_KEY });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
