import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/passkey-login/options: a single-use challenge any of the person's passkeys can answer. */
export function getPasskeyLoginOptions() {
  return apiRequest<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    "POST",
    "/api/auth/passkey-login/options",
  );
}
