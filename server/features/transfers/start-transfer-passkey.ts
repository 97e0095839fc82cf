import {
  type PasskeyOptionsResponse,
  SECURITY_MESSAGES,
  type TransferPasskeyOptionsInput,
} from "@/contract/security";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import { hasPasskeys, startPasskeyProof } from "@/server/features/auth/passkeys/passkey-proof";
import { asOptionsResponse } from "@/server/features/auth/second-factor";
import { findLookalikeRecipient } from "@/server/features/recipients/check-address";
import { checkedAddress } from "@/server/features/transfers/address-checksum";
import { bindingFor, lookalikeRefused } from "@/server/features/transfers/create-transfer";
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
    throw new AppError("no_passkey", SECURITY_MESSAGES.noPasskey);
  }
  const binding = bindingFor(input, input.idempotencyKey);
  checkedAddress(deps.config, input.cryptoAddress.trim(), input.confirmUnchecksummedAddress);
  // Refused before the browser asks for a signature: the transfer itself would refuse it after the passkey
  // was spent. The binding is untouched — it still covers the address, so no confirmation can redirect it.
  if (input.confirmLookalikeAddress !== true) {
    const lookalike = await findLookalikeRecipient(deps.database.db, user.id, input.cryptoAddress);
    if (lookalike) throw lookalikeRefused(lookalike.name);
  }
  return asOptionsResponse(await startPasskeyProof(deps, { userId: user.id, purpose: "transfer", binding }));
}
