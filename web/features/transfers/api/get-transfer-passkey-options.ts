import type { PasskeyOptionsResponse, TransferPasskeyOptionsInput } from "@/contract/security";
import { apiRequest } from "@/web/lib/api";

/** POST /api/transfer/passkey-options: a WebAuthn challenge derived from exactly these transfer fields. */
export function getTransferPasskeyOptions(input: TransferPasskeyOptionsInput) {
  return apiRequest<PasskeyOptionsResponse>("POST", "/api/transfer/passkey-options", input);
}
