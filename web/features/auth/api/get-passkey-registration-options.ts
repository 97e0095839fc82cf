import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/passkeys/registration-options: a fresh, single-use challenge for one new passkey. */
export function getPasskeyRegistrationOptions() {
  return apiRequest<PublicKeyCredentialCreationOptionsJSON>(
    "POST",
    "/api/auth/passkeys/registration-options",
  );
}
