import type { SecondFactorProof } from "@/contract/security";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/auth/login/verify: the second step of sign-in; the pending-login cookie travels with it. */
export function verifyLogin(secondFactor: SecondFactorProof) {
  return callEndpoint("POST /api/auth/login/verify", { body: { secondFactor } });
}

/** POST /api/auth/login/passkey-options: a WebAuthn challenge for this pending sign-in. */
export function getLoginPasskeyOptions() {
  return callEndpoint("POST /api/auth/login/passkey-options");
}
