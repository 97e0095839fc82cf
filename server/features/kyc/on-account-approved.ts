import type { Tx } from "@/server/db/client";
import { openWallet } from "@/server/lib/ledger";

/**
 * Runs in the approving transaction each time an account request moves into `approved`; idempotent.
 * Wallets open at sign-up, so this only matters for accounts created before the ledger existed.
 */
export async function onAccountApproved(tx: Tx, userId: string): Promise<void> {
  await openWallet(tx, userId);
}
