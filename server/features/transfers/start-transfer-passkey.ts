import {
  type PasskeyOptionsResponse,
  SECURITY_MESSAGES,
  type TransferPasskeyOptionsInput,
} from "@/contract/security";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import type { AppDeps } from "@/server/app";
import { hasPasskeys, startPasskeyProof } from "@/server/features/auth/passkeys/passkey-proof";
import { asOptionsResponse } from "@/server/features/auth/second-factor";
import { bindingFor } from "@/server/features/transfers/create-transfer";
import { AppError } from "@/server/lib/errors";

/** A WebAuthn challenge derived from this exact transfer (amount, fee, address, recipient, idempotency key). */
export async function startTransferPasskey(
  deps: AppDeps,
  user: { id: string; isAdmin: boolean },
  input: TransferPasskeyOptionsInput,
): Promise<PasskeyOptionsResponse> {
  if (user.isAdmin) throw new AppError("FORBIDDEN", TRANSFER_MESSAGES.adminCannotTransfer);
  // A challenge nobody can answer would only leave the customer waiting on the browser's prompt.
  if (!(await hasPasskeys(deps.database.db, user.id))) {
    throw new AppError("BAD_REQUEST", SECURITY_MESSAGES.noPasskey, { noPasskey: true });
  }
  const binding = bindingFor(input, input.idempotencyKey);
  return asOptionsResponse(await startPasskeyProof(deps, { userId: user.id, purpose: "transfer", binding }));
}
