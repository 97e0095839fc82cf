import { and, eq, gte } from "drizzle-orm";
import { APPROVAL_MESSAGES } from "@/contract/approvals";
import { COMPLIANCE_MESSAGES } from "@/contract/compliance";
import { formatMoney } from "@/contract/money";
import { PAYOUT_MESSAGES, UNITS_PER_CENT } from "@/contract/settlement";
import {
  TERMINAL_TRANSFER_STATUSES,
  type TransferRequest,
  type TransferStatus,
  type UpdateTransferInput,
} from "@/contract/transfers";
import type { Db, Tx } from "@/server/db/client";
import { payouts, transactions, transferRequests, users } from "@/server/db/schema";
import { hasComplianceHold } from "@/server/features/compliance/screen";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { captureHold, lockWallet, releaseHold, systemAccountId } from "@/server/lib/ledger";
import { transferSettledMail } from "@/server/lib/mail/money-templates";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { notify } from "@/server/lib/notifications";
import { writtenSince } from "@/server/lib/partitions";

/** The quick buttons send approved / rejected: approved means completed, rejected means cancelled. */
function normalise(status: UpdateTransferInput["status"]): TransferStatus {
  if (status === "approved") return "completed";
  if (status === "rejected") return "cancelled";
  return status;
}

/** What a customer's own move (cancel) adds to the staff's rules. */
export interface StatusMoveRules {
  /** Only this user's transfer; any other is not found. */
  ownerId?: string;
  /** The statuses it may move from (a customer may cancel only while it is still pending). */
  onlyFrom?: readonly TransferStatus[];
  auditAction?: string;
  notFoundMessage?: string;
  conflictMessage?: (status: TransferStatus) => string;
  /** Refuse anything but cancelled or failed when the transfer is flagged or its owner frozen (maker-checker). */
  refuseHeld?: boolean;
  /**
   * The customer's cancel: refused while a compliance hold stands, with these words. A payment to a listed person
   * is blocked, not returned; compliance rejects or blocks it (decision 048).
   */
  refuseUnderComplianceHold?: string;
  /**
   * Staff's cancel or fail: refused too while a compliance hold stands. Giving the money back is the case's reject
   * decision, taken by two compliance members and reported (decision 048), not a finance click.
   */
  refuseReturnUnderComplianceHold?: boolean;
  /**
   * Chain settlement (CHAIN_RPC_URL set, decision 030): "approved" moves it to processing and queues its payout;
   * "completed" is the chain's to set, never a person's; a transfer with a payout belongs to the payout worker.
   */
  chain?: { chainId: number };
  /**
   * The payout worker's own settling move: the money left on chain (or never can), so no hold or compliance
   * check may stop the ledger from following. `why` goes to the customer's e-mail on a failure.
   */
  payoutSettles?: { why?: string };
}

/** Flagged by "This wasn't me", or its customer's account is frozen: it leaves only with a second person. */
export async function isHeld(
  tx: Tx,
  request: Pick<typeof transferRequests.$inferSelect, "flaggedAt" | "userId">,
): Promise<boolean> {
  if (request.flaggedAt) return true;
  if (!request.userId) return false;
  const [owner] = await tx
    .select({ frozenAt: users.frozenAt })
    .from(users)
    .where(eq(users.id, request.userId));
  return Boolean(owner?.frozenAt);
}

/**
 * Moves a transfer request along its state machine. Completed captures the hold (wallet → USDC clearing
 * net, wallet → fee revenue fee); failed or cancelled releases it. Terminal states never move again, and
 * the row lock makes two admins racing on one request settle it exactly once.
 */
export async function updateTransferStatus(
  db: Db,
  actorId: string | null,
  transferId: string,
  input: UpdateTransferInput,
  rules: StatusMoveRules = {},
): Promise<TransferRequest> {
  const [found] = await db
    .select({ userId: transferRequests.userId })
    .from(transferRequests)
    .where(eq(transferRequests.id, transferId));
  // Someone else's transfer is "not found" too: its sender must not learn that it exists.
  if (!found || (rules.ownerId !== undefined && found.userId !== rules.ownerId)) {
    throw new AppError("NOT_FOUND", rules.notFoundMessage ?? "Transfer request not found");
  }

  const { saved, mail } = await db.transaction((tx) =>
    moveTransferStatus(tx, actorId, { id: transferId, userId: found.userId }, input, rules),
  );
  if (mail) wakeMailWorker();
  return toTransferRequest(saved);
}

/** A move that is not a cancel or a failure: the money leaves (completed) or is on its way to leaving. */
export function isReleasingMove(status: UpdateTransferInput["status"]): boolean {
  const next = normalise(status);
  return next !== "cancelled" && next !== "failed";
}

/** How the notification centre words each status a transfer can move to. */
const TRANSFER_STATUS_WORDS: Record<string, string> = {
  pending: "pending",
  processing: "being processed",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
};

/**
 * The move itself, in the caller's transaction (a direct update, or an approval's replay). Call
 * wakeMailWorker() after the commit when it answers `mail: true`.
 */
export async function moveTransferStatus(
  tx: Tx,
  actorId: string | null,
  target: { id: string; userId: string | null },
  input: UpdateTransferInput,
  rules: StatusMoveRules = {},
): Promise<{ saved: typeof transferRequests.$inferSelect; mail: boolean }> {
  let next = normalise(input.status);
  const transferId = target.id;
  const staffOnChain = rules.chain !== undefined && rules.payoutSettles === undefined;
  if (staffOnChain && input.status === "completed") {
    throw new AppError("completed_by_chain", PAYOUT_MESSAGES.completedByChain);
  }
  // Quick Approve in chain mode: the payout worker sends it; the ledger captures once the chain confirms it.
  const queuePayout = staffOnChain && input.status === "approved";
  if (queuePayout) next = "processing";
  {
    // Same lock order as createTransfer (wallet, then request rows), so the two can never deadlock.
    const wallet = target.userId ? await lockWallet(tx, target.userId) : null;
    const [request] = await tx
      .select()
      .from(transferRequests)
      .where(eq(transferRequests.id, transferId))
      .for("update");
    if (TERMINAL_TRANSFER_STATUSES.includes(request.status)) {
      throw new AppError(
        "CONFLICT",
        rules.conflictMessage?.(request.status) ??
          `This transfer is already ${request.status} and can no longer change`,
      );
    }
    if (rules.onlyFrom && !rules.onlyFrom.includes(request.status)) {
      throw new AppError(
        "CONFLICT",
        rules.conflictMessage?.(request.status) ?? `This transfer is already ${request.status}`,
      );
    }
    if (rules.refuseUnderComplianceHold && (await hasComplianceHold(tx, request.userId))) {
      throw new AppError("transfer_under_review", rules.refuseUnderComplianceHold);
    }
    if (staffOnChain) {
      const [payout] = await tx
        .select({ id: payouts.id })
        .from(payouts)
        .where(eq(payouts.transferRequestId, request.id));
      if (payout) throw new AppError("payout_in_flight", PAYOUT_MESSAGES.payoutInFlight);
    }
    const settles = rules.payoutSettles !== undefined;
    // Decided under the row lock: a freeze that flagged it a moment ago holds here too.
    if (!settles && rules.refuseHeld && isReleasingMove(input.status) && (await isHeld(tx, request))) {
      throw new AppError("transfer_held", APPROVAL_MESSAGES.transferHeld);
    }
    // A compliance case (open, or a confirmed match) holds every release, whoever asks and however approved, and
    // every return staff would make: the case rejects or blocks it.
    const isRelease = isReleasingMove(input.status);
    if (
      !settles &&
      (isRelease || rules.refuseReturnUnderComplianceHold) &&
      (await hasComplianceHold(tx, request.userId))
    ) {
      throw new AppError(
        "compliance_hold",
        isRelease ? COMPLIANCE_MESSAGES.complianceHold : COMPLIANCE_MESSAGES.complianceHoldNoReturn,
      );
    }
    if (!wallet || !request.holdId || !request.transactionId) {
      throw new AppError("CONFLICT", "This transfer has no open hold to settle");
    }

    let entryId: string | null = null;
    if (next === "completed") {
      entryId = await captureHold(tx, request.holdId, {
        kind: "transfer_capture",
        description: `USDC transfer to ${request.recipientName}`,
        referenceType: "transfer_request",
        referenceId: request.id,
        actorId,
        postings: [
          { accountId: wallet.id, amount: -request.amount },
          { accountId: await systemAccountId(tx, "usdc_clearing"), amount: request.netAmount },
          ...(request.fee > 0
            ? [{ accountId: await systemAccountId(tx, "fee_revenue"), amount: request.fee }]
            : []),
        ],
      });
    } else if (next === "failed" || next === "cancelled") {
      await releaseHold(tx, request.holdId);
    }

    const now = new Date();
    const adminNotes = input.adminNotes === undefined ? request.adminNotes : input.adminNotes || null;
    const [saved] = await tx
      .update(transferRequests)
      .set({
        status: next,
        adminNotes,
        updatedAt: now,
        // The receipt's timeline: first time under review, and the moment it settled.
        ...(next === "processing" && !request.reviewedAt ? { reviewedAt: now } : {}),
        ...(TERMINAL_TRANSFER_STATUSES.includes(next) ? { settledAt: now } : {}),
      })
      .where(eq(transferRequests.id, request.id))
      .returning();
    await tx
      .update(transactions)
      .set({ status: next, ...(entryId ? { entryId } : {}), updatedAt: now })
      .where(
        and(
          eq(transactions.id, request.transactionId),
          gte(transactions.createdAt, writtenSince(request.createdAt)),
        ),
      );
    if (queuePayout) {
      await tx.insert(payouts).values({
        transferRequestId: request.id,
        chainId: rules.chain!.chainId,
        toAddress: request.cryptoAddress.trim(),
        units: String(BigInt(request.netAmount) * UNITS_PER_CENT),
        queuedBy: actorId,
      });
    }
    await writeAudit(tx, {
      actorId,
      action: rules.auditAction ?? (queuePayout ? "transfer.queue_payout" : "transfer.update_status"),
      targetType: "transfer_request",
      targetId: request.id,
      before: { status: request.status, adminNotes: request.adminNotes },
      after: { status: next, adminNotes, ...(queuePayout ? { payout: "queued" } : {}) },
    });

    let mail = false;
    const settled = next === "completed" || next === "failed" || next === "cancelled" ? next : null;
    const [owner] = await tx
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(eq(users.id, wallet.userId));
    if (owner) {
      const amount = formatMoney(request.amount);
      await notify(
        tx,
        wallet.userId,
        "transfer_status",
        {
          title: `Transfer ${TRANSFER_STATUS_WORDS[next]}`,
          body: `Your transfer of ${amount} to ${request.recipientName} is ${TRANSFER_STATUS_WORDS[next]}.`,
          link: `/transfers/${request.id}`,
        },
        settled
          ? transferSettledMail(owner.email, {
              firstName: owner.firstName,
              status: settled,
              amount,
              recipientName: request.recipientName,
              why: rules.payoutSettles?.why,
            })
          : undefined,
      );
      mail = settled !== null;
    }
    return { saved: saved!, mail };
  }
}
