import { and, desc, eq } from "drizzle-orm";
import {
  RECEIPT_MESSAGES,
  TERMINAL_TRANSFER_STATUSES,
  type TransferOnChain,
  type TransferReceipt,
  type TransferTimelineStep,
  transferReference,
} from "@/contract/transfers";
import type { Db } from "@/server/db/client";
import { payoutAttempts, payouts, transferRequests } from "@/server/db/schema";
import { hasComplianceHold } from "@/server/features/compliance/screen";
import { AppError } from "@/server/lib/errors";

type TransferRow = typeof transferRequests.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Requested, then under review if staff looked at it (or it is still open), then where it ended or will end. */
function timelineOf(row: TransferRow): TransferTimelineStep[] {
  const steps: TransferTimelineStep[] = [{ status: "requested", at: row.createdAt.toISOString() }];
  const settled = TERMINAL_TRANSFER_STATUSES.includes(row.status);
  if (row.reviewedAt || !settled) {
    steps.push({ status: "processing", at: row.reviewedAt?.toISOString() ?? null });
  }
  steps.push(
    settled
      ? {
          status: row.status as TransferTimelineStep["status"],
          at: (row.settledAt ?? row.updatedAt).toISOString(),
        }
      : { status: "completed", at: null },
  );
  return steps;
}

export function toTransferReceipt(
  row: TransferRow,
  onChain: TransferOnChain | null = null,
  chainName?: string,
): TransferReceipt {
  return {
    id: row.id,
    reference: transferReference(row.id),
    status: row.status,
    amountCents: row.amount,
    feeCents: row.fee,
    netAmountCents: row.netAmount,
    recipientName: row.recipientName,
    cryptoAddress: row.cryptoAddress,
    purpose: row.purpose,
    createdAt: row.createdAt.toISOString(),
    timeline: timelineOf(row),
    canCancel: row.status === "pending",
    onChain,
    ...(chainName ? { network: `USDC on ${chainName}` } : {}),
  };
}

/** What the receipt needs of chain settlement: the depth, the explorer, and the node's head (null: unreachable). */
export interface ReceiptChainView {
  /** The chain's name customers read ("Base"). */
  chainName: string;
  confirmations: number;
  explorerUrl?: string;
  head(): Promise<number | null>;
}

/** The payout's hash and depth for the receipt; null when the transfer has no payout (manual mode, or pending). */
async function onChainOf(
  db: Db,
  row: TransferRow,
  chain?: ReceiptChainView,
): Promise<TransferOnChain | null> {
  if (!chain) return null;
  const [payout] = await db.select().from(payouts).where(eq(payouts.transferRequestId, row.id));
  if (!payout) return null;
  const [last] = await db
    .select({ txHash: payoutAttempts.txHash })
    .from(payoutAttempts)
    .where(eq(payoutAttempts.payoutId, payout.id))
    .orderBy(desc(payoutAttempts.createdAt))
    .limit(1);
  const txHash = payout.minedHash ?? last?.txHash ?? null;
  let confirmations = 0;
  if (payout.status === "completed") confirmations = chain.confirmations;
  if (payout.minedBlock !== null) {
    const head = await chain.head();
    if (head !== null) confirmations = Math.max(confirmations, head - payout.minedBlock + 1);
  }
  return {
    txHash,
    confirmations,
    confirmationsRequired: chain.confirmations,
    explorerUrl: txHash && chain.explorerUrl ? `${chain.explorerUrl}/tx/${txHash}` : null,
    failureReason: payout.failureReason,
  };
}

/** A customer's own transfer; a malformed id, a missing one and another customer's all answer the same 404. */
export async function findOwnTransfer(db: Db, userId: string, transferId: string): Promise<TransferRow> {
  if (!UUID.test(transferId)) throw new AppError("NOT_FOUND", RECEIPT_MESSAGES.notFound);
  const [row] = await db
    .select()
    .from(transferRequests)
    .where(and(eq(transferRequests.id, transferId), eq(transferRequests.userId, userId)));
  if (!row) throw new AppError("NOT_FOUND", RECEIPT_MESSAGES.notFound);
  return row;
}

export async function getTransferReceipt(
  db: Db,
  userId: string,
  transferId: string,
  chain?: ReceiptChainView,
): Promise<TransferReceipt> {
  const row = await findOwnTransfer(db, userId, transferId);
  const receipt = toTransferReceipt(row, await onChainOf(db, row, chain), chain?.chainName);
  // No Cancel to offer while a compliance hold stands: the cancel would be refused (decision 048).
  if (receipt.canCancel && (await hasComplianceHold(db, userId))) receipt.canCancel = false;
  return receipt;
}
