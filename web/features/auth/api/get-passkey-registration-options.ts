import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { callEndpoint } from "@/web/lib/api";

/**
 * POST /api/auth/passkeys/registration-options: a fresh, single-use challenge for one new passkey. The contract
 * leaves the options an open record (the server library's shape); the browser library reads them as its own.
 */
export async function getPasskeyRegistrationOptions() {
  const options = await callEndpoint("POST /api/auth/passkeys/registration-options");
  return options as unknown as PublicKeyCredentialCreationOptionsJSON;
}
