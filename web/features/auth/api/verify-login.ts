import type { LoginResponse } from "@/contract/auth";
import type { PasskeyOptionsResponse, SecondFactorProof } from "@/contract/security";
import { apiRequest } from "@/web/lib/api";

/** POST /api/auth/login/verify: the second step of sign-in; the pending-login cookie travels with it. */
export function verifyLogin(secondFactor: SecondFactorProof) {
  return apiRequest<LoginResponse>("POST", "/api/auth/login/verify", { secondFactor });
}

/** POST /api/auth/login/passkey-options: a WebAuthn challenge for this pending sign-in. */
export function getLoginPasskeyOptions() {
  return apiRequest<PasskeyOptionsResponse>("POST", "/api/auth/login/passkey-options");
}
