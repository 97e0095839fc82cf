import type { TransferPasskeyOptionsInput } from "@/contract/security";
import { callEndpoint } from "@/web/lib/api";

/** POST /api/transfer/passkey-options: a WebAuthn challenge derived from exactly these transfer fields. */
export function getTransferPasskeyOptions(input: TransferPasskeyOptionsInput) {
  return callEndpoint("POST /api/transfer/passkey-options", { body: input });
}
