import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PasskeyInfo } from "@/contract/passkeys";
import { getPasskeyRegistrationOptions } from "@/web/features/settings/api/get-passkey-registration-options";
import { PASSKEYS_KEY } from "@/web/features/settings/api/get-passkeys";
import { apiRequest } from "@/web/lib/api";
import { createPasskey } from "@/web/lib/webauthn";

/** The whole ceremony: options from the server, the authenticator's answer, then POST /api/auth/passkeys. */
export async function registerPasskey(name: string) {
  const options = await getPasskeyRegistrationOptions();
  const response = await createPasskey(options);
  return apiRequest<PasskeyInfo>("POST", "/api/auth/passkeys", { name, response });
}

export function useRegisterPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
}
