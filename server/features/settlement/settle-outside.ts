import { and, eq, sql } from "drizzle-orm";
import { type Hex, type PublicClient, parseEventLogs } from "viem";
import { z } from "zod";
import type { PendingApprovalResponse } from "@/contract/approvals";
import { formatMoney } from "@/contract/money";
import { SETTLED_OUTSIDE_MESSAGES, unitsToUsdc } from "@/contract/settlement";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import { payoutAttempts, payouts, transferRequests } from "@/server/db/schema";
import { type ApprovalAction, approvalPayload } from "@/server/features/approvals/approval-actions";
import { type StaffActor, submitForApproval } from "@/server/features/approvals/request-approval";
import { hasComplianceHold } from "@/server/features/compliance/screen";
import { chainClient, receiptOf } from "@/server/features/settlement/chain-config";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { moveTransferStatus } from "@/server/features/transfers/update-transfer-status";
import type { ChainConfig } from "@/server/lib/chain-config";
import { AppError } from "@/server/lib/errors";

type PayoutRow = typeof payouts.$inferSelect;

const notSettleable = (message: string) => new AppError("payout_not_settleable", message);
const badHash = (message: string) => new AppError("outside_tx_invalid", message, { field: "txHash" });

/**
 * Whether a payout may be recorded as settled outside Pillar, checked when it is proposed and again, under the
 * payout's lock, when it is approved. Nothing Pillar signed for it may ever be mined after: a queued payout has
 * nothing signed (and the worker does not sign one while a proposal waits); a signed or sent one only once its
 * nonce is used by another transaction at CHAIN_CONFIRMATIONS depth and none of its own attempts is mined. A
 * named transaction must be a confirmed USDC transfer to the payout's address for its exact units.
 */
async function checkSettleable(
  tx: Tx,
  chain: ChainConfig,
  client: PublicClient,
  payout: PayoutRow,
  userId: string | null,
  txHash: string | null,
): Promise<void> {
  if (payout.status === "completed" || payout.status === "failed") {
    throw notSettleable(SETTLED_OUTSIDE_MESSAGES.settled(payout.status));
  }
  if (payout.status === "held") throw notSettleable(SETTLED_OUTSIDE_MESSAGES.held);
  if (!userId) throw notSettleable(SETTLED_OUTSIDE_MESSAGES.noCustomer);
  if (payout.status === "queued" && (await hasComplianceHold(tx, userId))) {
    throw notSettleable(SETTLED_OUTSIDE_MESSAGES.held);
  }
  const head = Number(await client.getBlockNumber());
  const final = head - chain.confirmations + 1;
  if (payout.status === "signed" || payout.status === "sent") {
    const attempts = await tx.select().from(payoutAttempts).where(eq(payoutAttempts.payoutId, payout.id));
    for (const a of attempts) {
      if (await receiptOf(client, a.txHash as Hex)) throw notSettleable(SETTLED_OUTSIDE_MESSAGES.ownMined);
    }
    const used =
      final < 0
        ? 0
        : await client.getTransactionCount({ address: chain.signer.address, blockNumber: BigInt(final) });
    if (used <= payout.nonce!) {
      throw notSettleable(SETTLED_OUTSIDE_MESSAGES.stillMinable(payout.nonce!, chain.confirmations));
    }
  }
  if (!txHash) return;
  const [own] = await tx
    .select({ id: payoutAttempts.id })
    .from(payoutAttempts)
    .where(eq(payoutAttempts.txHash, txHash));
  if (own) throw badHash(SETTLED_OUTSIDE_MESSAGES.ownTransaction);
  const [other] = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.chainId, chain.chainId), eq(payouts.outsideTxHash, txHash)));
  if (other && other.id !== payout.id) throw badHash(SETTLED_OUTSIDE_MESSAGES.hashUsed);
  const receipt = await receiptOf(client, txHash as Hex);
  if (!receipt) throw badHash(SETTLED_OUTSIDE_MESSAGES.notFound);
  if (receipt.status !== "success") throw badHash(SETTLED_OUTSIDE_MESSAGES.reverted);
  if (Number(receipt.blockNumber) > final)
    throw badHash(SETTLED_OUTSIDE_MESSAGES.notDeep(chain.confirmations));
  const to = payout.toAddress.toLowerCase();
  const paid = parseEventLogs({ abi: pillarUsdAbi, eventName: "Transfer", logs: receipt.logs }).some(
    (l) =>
      l.address.toLowerCase() === chain.usdcContract.toLowerCase() &&
      l.args.to.toLowerCase() === to &&
      l.args.value === BigInt(payout.units),
  );
  if (!paid)
    throw badHash(SETTLED_OUTSIDE_MESSAGES.notThePayment(unitsToUsdc(payout.units), payout.toAddress));
}

/** The payout, locked, and its transfer's customer; 404 for an id that is not a payout on this chain. */
async function lockPayout(tx: Tx, chain: ChainConfig, payoutId: string) {
  const [row] = await tx
    .select()
    .from(payouts)
    .where(and(eq(payouts.id, payoutId), eq(payouts.chainId, chain.chainId)))
    .for("update");
  if (!row) throw new AppError("NOT_FOUND", "No such payout");
  const [request] = await tx
    .select({ id: transferRequests.id, userId: transferRequests.userId, amount: transferRequests.amount })
    .from(transferRequests)
    .where(eq(transferRequests.id, row.transferRequestId));
  return { payout: row, request: request! };
}

/**
 * A finance member proposes that a stuck payout was settled outside Pillar (paid from another wallet, or by a
 * transaction Pillar did not sign): 202 with the pending approval. Nothing moves until a second member approves;
 * meanwhile the worker does not sign the payout. One pending proposal per payout (409 approvalPending).
 */
export async function proposeSettledOutside(
  db: Db,
  chain: ChainConfig,
  maker: StaffActor,
  payoutId: string,
  input: { reason: string; txHash?: string | null },
  client: PublicClient = chainClient(chain),
): Promise<{ status: 202; body: PendingApprovalResponse }> {
  const txHash = input.txHash ?? null;
  return submitForApproval(db, maker, async (tx) => {
    const { payout, request } = await lockPayout(tx, chain, payoutId);
    await checkSettleable(tx, chain, client, payout, request.userId, txHash);
    return {
      kind: "payout_settled_outside",
      userId: request.userId!,
      targetKey: payout.id,
      payload: { op: "settle_payout_outside", payoutId: payout.id, txHash },
      amount: request.amount,
      before: { payoutStatus: payout.status, nonce: payout.nonce, transferStatus: "processing" },
      after: { payoutStatus: "completed", transferStatus: "completed", settledOutside: true, txHash },
      reason: input.reason,
    };
  });
}

/**
 * The checker's approval: under the payout's lock (taken after the approval's, and before the wallet and the
 * transfer as the worker takes them, so the two never deadlock), the checks again, then the capture a
 * completed payout posts (the pending debit posts, the hold is released) and the payout marked completed and
 * settled outside. The worker claims only queued, held, signed and sent payouts: it never touches it again.
 */
export const settledOutsideAction =
  (chain: ChainConfig, client: PublicClient = chainClient(chain)): ApprovalAction =>
  async (tx, row) => {
    const { payoutId, txHash } = approvalPayload(row, ["settle_payout_outside"]);
    const { payout, request } = await lockPayout(tx, chain, payoutId);
    // Moved since the proposal (the worker signed or settled it, the named transaction was reorged out): the
    // approval is stale (409), and the checker rejects it.
    try {
      await checkSettleable(tx, chain, client, payout, request.userId, txHash);
    } catch (err) {
      if (err instanceof AppError && err.reason === "outside_tx_invalid") {
        throw new AppError("stale_approval", err.message, err.details, err.reason);
      }
      throw err;
    }
    await moveTransferStatus(
      tx,
      row.makerId,
      { id: request.id, userId: request.userId },
      { status: "completed" },
      { payoutSettles: {}, auditAction: "payout.settled_outside" },
    );
    const now = new Date();
    await tx
      .update(payouts)
      .set({
        status: "completed",
        outsideTxHash: txHash,
        settledOutsideBy: row.id,
        waitingReason: null,
        settledAt: now,
        updatedAt: now,
      })
      .where(eq(payouts.id, payout.id));
    return {
      payoutId: payout.id,
      transferRequestId: request.id,
      status: "completed",
      amount: formatMoney(request.amount),
    };
  };

/** Without a chain there are no payouts: an approval of this kind cannot exist, and would be stale. */
export const noChainSettledOutside: ApprovalAction = async () => {
  throw new AppError("NOT_FOUND", "No such payout: settlement is manual, nothing is on chain");
};

/** The payouts with a pending proposal (the worker skips them) or an approved record, for the Settlement tab. */
export async function findSettledOutside(db: Db, payoutIds: string[]) {
  if (payoutIds.length === 0) return new Map<string, SettledOutsideRow>();
  const rows = await queryRows(
    db,
    sql`select distinct on (a.target_key) a.target_key as payout_id, a.id as approval_id, a.status, a.reason,
               a.payload->>'txHash' as tx_hash, a.created_at, m.email as maker_email, c.email as checker_email
        from approvals a
        left join users m on m.id = a.maker_id
        left join users c on c.id = a.checker_id
        where a.kind = 'payout_settled_outside' and a.status in ('pending', 'approved')
          and a.target_key in (${sql.join(
            payoutIds.map((id) => sql`${id}`),
            sql`, `,
          )})
        order by a.target_key, (a.status = 'approved') desc, a.created_at desc`,
    settledOutsideRow,
  );
  return new Map(rows.map((r) => [r.payout_id, r]));
}

// created_at comes back as its text on both drivers (Drizzle leaves timestamps unparsed).
const settledOutsideRow = z.object({
  payout_id: z.string(),
  approval_id: z.string(),
  status: z.enum(["pending", "approved"]),
  reason: z.string(),
  tx_hash: z.string().nullable(),
  created_at: z.string(),
  maker_email: z.string().nullable(),
  checker_email: z.string().nullable(),
});
export type SettledOutsideRow = z.output<typeof settledOutsideRow>;
