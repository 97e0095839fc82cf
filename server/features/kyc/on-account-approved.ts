import type { Tx } from "@/server/db/client";

/**
 * Runs in the approving transaction each time an account request moves into `approved`; must be idempotent.
 * The money issue fills this in to open the user's ledger wallet; until then there is nothing to open.
 */
export async function onAccountApproved(_tx: Tx, _userId: string): Promise<void> {}
