import { eq } from "drizzle-orm";
import { formatMoney } from "@/contract/money";
import {
  TERMINAL_TRANSFER_STATUSES,
  type TransferRequest,
  type TransferStatus,
  type UpdateTransferInput,
} from "@/contract/transfers";
import type { Db } from "@/server/db/client";
import { transactions, transferRequests, users } from "@/server/db/schema";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { captureHold, lockWallet, releaseHold, systemAccountId } from "@/server/lib/ledger";
import { transferSettledMail } from "@/server/lib/mail/money-templates";
import { enqueueMail, wakeMailWorker } from "@/server/lib/mail/outbox";

/** The quick buttons send approved / rejected: approved means completed, rejected means cancelled. */
function normalise(status: UpdateTransferInput["status"]): TransferStatus {
  if (status === "approved") return "completed";
  if (status === "rejected") return "cancelled";
  return status;
}

/**
 * Moves a transfer request along its state machine. Completed captures the hold (wallet → USDC clearing
 * net, wallet → fee revenue fee); failed or cancelled releases it. Terminal states never move again, and
 * the row lock makes two admins racing on one request settle it exactly once.
 */
export async function updateTransferStatus(
  db: Db,
  actorId: string,
  transferId: string,
  input: UpdateTransferInput,
): Promise<TransferRequest> {
  const next = normalise(input.status);
  const [found] = await db
    .select({ userId: transferRequests.userId })
    .from(transferRequests)
    .where(eq(transferRequests.id, transferId));
  if (!found) throw new AppError("NOT_FOUND", "Transfer request not found");

  const { saved, mail } = await db.transaction(async (tx) => {
    // Same lock order as createTransfer (wallet, then request rows), so the two can never deadlock.
    const wallet = found.userId ? await lockWallet(tx, found.userId) : null;
    const [request] = await tx
      .select()
      .from(transferRequests)
      .where(eq(transferRequests.id, transferId))
      .for("update");
    if (TERMINAL_TRANSFER_STATUSES.includes(request.status)) {
      throw new AppError("CONFLICT", `This transfer is already ${request.status} and can no longer change`);
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

    const adminNotes = input.adminNotes === undefined ? request.adminNotes : input.adminNotes || null;
    const [saved] = await tx
      .update(transferRequests)
      .set({ status: next, adminNotes, updatedAt: new Date() })
      .where(eq(transferRequests.id, request.id))
      .returning();
    await tx
      .update(transactions)
      .set({ status: next, ...(entryId ? { entryId } : {}), updatedAt: new Date() })
      .where(eq(transactions.id, request.transactionId));
    await writeAudit(tx, {
      actorId,
      action: "transfer.update_status",
      targetType: "transfer_request",
      targetId: request.id,
      before: { status: request.status, adminNotes: request.adminNotes },
      after: { status: next, adminNotes },
    });

    let mail = false;
    if (next === "completed" || next === "failed" || next === "cancelled") {
      const [owner] = await tx
        .select({ email: users.email, firstName: users.firstName })
        .from(users)
        .where(eq(users.id, wallet.userId));
      if (owner) {
        await enqueueMail(
          tx,
          transferSettledMail(owner.email, {
            firstName: owner.firstName,
            status: next,
            amount: formatMoney(request.amount),
            recipientName: request.recipientName,
          }),
        );
        mail = true;
      }
    }
    return { saved, mail };
  });
  if (mail) wakeMailWorker();
  return toTransferRequest(saved);
}
