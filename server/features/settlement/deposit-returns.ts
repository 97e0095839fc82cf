import { and, eq, ne, sql } from "drizzle-orm";
import type { PublicClient } from "viem";
import { z } from "zod";
import type { PendingApprovalResponse } from "@/contract/approvals";
import { unitsToUsdc } from "@/contract/settlement";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import { chainDeposits, treasuryMovements } from "@/server/db/schema";
import { type ApprovalAction, approvalPayload } from "@/server/features/approvals/approval-actions";
import { type StaffActor, submitForApproval } from "@/server/features/approvals/request-approval";
import { chainClient } from "@/server/features/settlement/chain-config";
import type { ChainConfig } from "@/server/lib/chain-config";
import { AppError } from "@/server/lib/errors";

type DepositRow = typeof chainDeposits.$inferSelect;

const notReturnable = (message: string) => new AppError("deposit_not_returnable", message);

/** What decides whether a deposit may go back to its sender: read by the route, the approval and the tab. */
export interface ReturnFacts {
  status: DepositRow["status"];
  returnedBy: string | null;
  userId: string | null;
  /** A return movement not failed exists for it (queued, on its way, or done). */
  openReturn: boolean;
  /** Blocks from the deposit's block to the head, both counted (the watcher's depth). */
  depth: number;
}

/**
 * Why a deposit may not go back to its sender, or null when it may (decision 060): it was never booked (below
 * one cent, or confirmed and still pending because its customer cannot receive: account closed or frozen), it
 * has no return on its way or done, it is `CHAIN_CONFIRMATIONS` deep, and its customer still exists (the
 * approval names one). A deposit held for a listed sender is blocked, not returned (decision 048). The
 * Settlement tab's `returnable` is this function's answer, so the web never guesses the rule.
 */
export function returnRefusal(d: ReturnFacts, confirmations: number): string | null {
  if (d.status === "credited") {
    return "This deposit was credited to the customer: it is theirs, not the bank's to return";
  }
  if (d.status === "held") {
    return "This deposit is held for a listed sender: it is blocked under the sanctions rules, never returned";
  }
  if (d.status === "reversed") {
    return "This deposit was reversed: its transfer is no longer on chain, there is nothing to return";
  }
  if (d.openReturn || d.returnedBy) return "This deposit is already being returned, or was";
  if (d.depth < confirmations) {
    return `This deposit is not ${confirmations} blocks deep yet: the watcher may still credit it`;
  }
  if (!d.userId) return "The deposit's customer was deleted: return it with the deposit key holder";
  return null;
}

/** The route's and the approval's check, on the locked row and the chain's head now. */
async function checkReturnable(tx: Tx, chain: ChainConfig, client: PublicClient, deposit: DepositRow) {
  const [open] = await tx
    .select({ id: treasuryMovements.id })
    .from(treasuryMovements)
    .where(and(eq(treasuryMovements.depositId, deposit.id), ne(treasuryMovements.status, "failed")));
  // Only a deposit that could be returned costs a call to the node.
  const settled = returnRefusal({ ...deposit, openReturn: Boolean(open), depth: Number.MAX_SAFE_INTEGER }, 0);
  if (settled) throw notReturnable(settled);
  const head = Number(await client.getBlockNumber());
  const refusal = returnRefusal(
    { ...deposit, openReturn: false, depth: head - deposit.blockNumber + 1 },
    chain.confirmations,
  );
  if (refusal) throw notReturnable(refusal);
}

async function lockDeposit(tx: Tx, chain: ChainConfig, depositId: string): Promise<DepositRow> {
  const [row] = await tx
    .select()
    .from(chainDeposits)
    .where(and(eq(chainDeposits.id, depositId), eq(chainDeposits.chainId, chain.chainId)))
    .for("update");
  if (!row) throw new AppError("NOT_FOUND", "No such deposit");
  return row;
}

/**
 * A finance member proposes to return an uncreditable deposit to its sender: 202 with the pending approval. A
 * second, different member approves it on the approvals routes (decisions 007, 040); only then is a `return`
 * movement queued for the treasury worker. One pending proposal per deposit.
 */
export async function proposeDepositReturn(
  db: Db,
  chain: ChainConfig,
  maker: StaffActor,
  depositId: string,
  input: { reason: string },
  client: PublicClient = chainClient(chain),
): Promise<{ status: 202; body: PendingApprovalResponse }> {
  return submitForApproval(db, maker, async (tx) => {
    const deposit = await lockDeposit(tx, chain, depositId);
    await checkReturnable(tx, chain, client, deposit);
    return {
      kind: "deposit_return",
      userId: deposit.userId!,
      targetKey: deposit.id,
      payload: { op: "return_deposit", depositId: deposit.id },
      amount: deposit.amountCents,
      before: { depositStatus: deposit.status, units: deposit.units, from: deposit.fromAddress },
      after: { returnTo: deposit.fromAddress, usdc: unitsToUsdc(deposit.units) },
      reason: input.reason,
    };
  });
}

/**
 * The checker's approval: under the deposit's lock, the checks again, then a `return` movement from the hot
 * wallet to the sender for the deposit's exact units, queued for the treasury worker (signed and stored before
 * broadcast, at a nonce under the payouts' lock). Ledger: nothing. An uncredited deposit was never booked; the
 * chain held its units above what the ledger accounts for, and the return takes exactly them away.
 */
export const depositReturnAction =
  (chain: ChainConfig, client: PublicClient = chainClient(chain)): ApprovalAction =>
  async (tx, row) => {
    const { depositId } = approvalPayload(row, ["return_deposit"]);
    const deposit = await lockDeposit(tx, chain, depositId);
    try {
      await checkReturnable(tx, chain, client, deposit);
    } catch (err) {
      if (err instanceof AppError && err.reason === "deposit_not_returnable") {
        throw new AppError("stale_approval", err.message, err.details, err.reason);
      }
      throw err;
    }
    const [movement] = await queryRows(
      tx,
      sql`insert into treasury_movements (chain_id, kind, from_address, to_address, deposit_id, approval_id, units)
          values (${chain.chainId}, 'return', ${chain.signer.address.toLowerCase()}, ${deposit.fromAddress},
                  ${deposit.id}::uuid, ${row.id}::uuid, ${deposit.units})
          returning id`,
      z.object({ id: z.string() }),
    );
    return { depositId: deposit.id, movementId: movement!.id, status: "queued" };
  };

/** Without a chain there are no deposits on chain: an approval of this kind cannot exist. */
export const noChainDepositReturn: ApprovalAction = async () => {
  throw new AppError("NOT_FOUND", "No such deposit: settlement is manual, nothing is on chain");
};
