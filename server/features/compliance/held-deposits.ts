import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import { queryRows, type Tx } from "@/server/db/client";
import { complianceCases, complianceHits } from "@/server/db/schema";
import { findSanctionsHits, recordHits } from "@/server/features/compliance/screen";
import { releaseHold } from "@/server/lib/ledger";
import { notify } from "@/server/lib/notifications";

/**
 * A confirmed USDC deposit's sender screened against the active list (addresses match exactly, whatever the
 * case), in the crediting transaction. A hit is filed on the customer's open case (opened when there is none),
 * and the case row is locked for the rest of the transaction, so a decision on it waits until the deposit and its
 * hold are committed and then sees them. Answers the case the deposit waits on, or null when the sender is clean.
 * A case decided between joining and locking throws: the caller's savepoint rolls back and the next pass files the
 * deposit again, on a new case.
 */
export async function screenDepositSender(
  tx: Tx,
  deposit: { id: string; userId: string; fromAddress: string },
): Promise<string | null> {
  // The threshold is for names; a deposit has only an address to screen.
  const hits = await findSanctionsHits(tx, { addresses: [deposit.fromAddress] }, 1);
  if (hits.length === 0) return null;
  let { caseId } = await recordHits(tx, {
    userId: deposit.userId,
    point: "deposit",
    hits,
    depositId: deposit.id,
  });
  if (!caseId) {
    const [filed] = await tx
      .select({ caseId: complianceHits.caseId })
      .from(complianceHits)
      .where(eq(complianceHits.depositId, deposit.id));
    caseId = filed?.caseId ?? null;
  }
  if (!caseId) throw new Error(`deposit ${deposit.id}: its sanctions hit is on no case`);
  const [locked] = await tx
    .select({ status: complianceCases.status })
    .from(complianceCases)
    .where(eq(complianceCases.id, caseId))
    .for("update");
  if (locked?.status !== "open")
    throw new Error(`deposit ${deposit.id}: case ${caseId} was decided meanwhile`);
  return caseId;
}

/**
 * A case cleared (or its restriction lifted): each USDC deposit held under it becomes available, once. The row's
 * status moves from held under the case's lock and only if it is still held, and the hold closes only if still
 * open (releaseHold refuses a second close), so a replayed decision releases nothing more. Answers the deposits
 * released. Restrict, freeze and file release nothing: the money stays booked and held.
 */
export async function releaseHeldDeposits(tx: Tx, caseId: string): Promise<string[]> {
  const released = await queryRows(
    tx,
    sql`update chain_deposits set status = 'credited', credited_at = now()
        where case_id = ${caseId}::uuid and status = 'held'
        returning id, hold_id, transaction_id, user_id, amount_cents`,
    z.object({
      id: z.string(),
      hold_id: z.string(),
      transaction_id: z.string().nullable(),
      user_id: z.string().nullable(),
      amount_cents: z.coerce.number(),
    }),
  );
  for (const row of released) {
    await releaseHold(tx, row.hold_id);
    if (row.transaction_id) {
      await tx.execute(
        sql`update transactions set status = 'completed', updated_at = now()
            where id = ${row.transaction_id}::uuid and status = 'pending'`,
      );
    }
    if (row.user_id) {
      await notify(tx, row.user_id, "money_in", {
        title: `${formatMoney(Number(row.amount_cents))} is available`,
        body: "USDC deposit",
        link: "/dashboard",
      });
    }
  }
  return released.map((r) => r.id);
}
