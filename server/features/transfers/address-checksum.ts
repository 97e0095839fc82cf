import { getAddress } from "viem";
import { ETHEREUM_ADDRESS } from "@/contract/transfer-figures";
import { hasNoChecksum, TRANSFER_MESSAGES } from "@/contract/transfers";
import type { Config } from "@/server/config";
import { AppError } from "@/server/lib/errors";

/**
 * Chain settlement's checksum rule at the request (decision 044), before anything is held: an EVM address in its
 * EIP-55 form passes; one in small letters only is accepted when the customer confirmed it on the review step
 * (422 `unchecksummedAddress` otherwise) and is then kept in its EIP-55 form, so the payout worker's own check
 * passes it before signing; any other case (mixed, or capitals only) must match its checksum (422
 * `addressChecksumMismatch`). Manual settlement keeps the address as typed: staff settle it by hand. Answers the
 * address to store.
 */
export function checkedAddress(
  config: Pick<Config, "chain">,
  address: string,
  isConfirmed: boolean | undefined,
): string {
  if (!config.chain || !ETHEREUM_ADDRESS.test(address)) return address;
  const checksummed = getAddress(address.toLowerCase());
  if (address === checksummed) return address;
  if (hasNoChecksum(address)) {
    if (isConfirmed !== true) {
      throw new AppError("unchecksummed_address", TRANSFER_MESSAGES.unchecksummedAddress);
    }
    return checksummed;
  }
  throw new AppError("address_checksum_mismatch", TRANSFER_MESSAGES.addressChecksumMismatch);
}
