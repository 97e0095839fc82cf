import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { callEndpoint } from "@/web/lib/api";

/**
 * POST /api/auth/passkey-login/options: a single-use challenge any of the person's passkeys can answer. The
 * contract leaves the options an open record (the server library's shape); the browser library reads them as its own.
 */
export async function getPasskeyLoginOptions() {
  const { challengeId, options } = await callEndpoint("POST /api/auth/passkey-login/options");
  return { challengeId, options: options as unknown as PublicKeyCredentialRequestOptionsJSON };
}
