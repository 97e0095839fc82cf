import { eq } from "drizzle-orm";
import { PAYOUT_MESSAGES } from "@/contract/settlement";
import type { TransferRequest, UpdateTransferInput } from "@/contract/transfers";
import { TERMINAL_TRANSFER_STATUSES } from "@/contract/transfers";
import type { Db } from "@/server/db/client";
import { transferRequests } from "@/server/db/schema";
import { type ApprovalAction, approvalPayload } from "@/server/features/approvals/approval-actions";
import {
  requireReason,
  type StaffActor,
  type Submitted,
  submitForApproval,
} from "@/server/features/approvals/request-approval";
import { screenTransferBeforeRelease } from "@/server/features/compliance/screen-transfer";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";
import {
  isHeld,
  isReleasingMove,
  moveTransferStatus,
  type StatusMoveRules,
  updateTransferStatus,
} from "@/server/features/transfers/update-transfer-status";
import { AppError } from "@/server/lib/errors";

/** Thrown out of `prepare` to roll back and take the direct path (the transfer is not held). */
const DIRECT = Symbol("direct");

/**
 * PUT /api/admin/transfer-requests/{id}. A transfer flagged by "This wasn't me", or one of a frozen account, is
 * cancelled (or failed) by one person; any other move waits for a second staff member (202, reason required).
 * The direct path refuses a held transfer under its own lock, so a freeze racing the click cannot slip by.
 */
export async function submitTransferStatus(
  db: Db,
  maker: StaffActor,
  transferId: string,
  { reason, ...input }: UpdateTransferInput,
  sanctionsThreshold: number,
  chain?: StatusMoveRules["chain"],
): Promise<Submitted<TransferRequest>> {
  // Refused before anything is asked of a second person: the chain completes a transfer, never staff.
  if (chain && input.status === "completed") {
    throw new AppError("completed_by_chain", PAYOUT_MESSAGES.completedByChain);
  }
  if (isReleasingMove(input.status)) {
    // Screened again at approval: a hit files a case, and the move below then refuses (complianceHold).
    await screenTransferBeforeRelease(db, transferId, sanctionsThreshold);
    const pending = await submitForApproval(db, maker, async (tx) => {
      const [request] = await tx
        .select()
        .from(transferRequests)
        .where(eq(transferRequests.id, transferId))
        .for("update");
      if (!request || !(await isHeld(tx, request))) throw DIRECT;
      if (TERMINAL_TRANSFER_STATUSES.includes(request.status)) throw DIRECT;
      return {
        kind: "transfer_release",
        userId: request.userId!,
        targetKey: request.id,
        payload: { op: "release_transfer", transferId: request.id, input },
        amount: request.amount,
        before: { transferStatus: request.status, flagged: request.flaggedAt !== null },
        after: {
          transferStatus: input.status === "approved" ? (chain ? "processing" : "completed") : input.status,
        },
        reason: requireReason(reason),
      };
    }).catch((err) => {
      if (err === DIRECT) return null;
      throw err;
    });
    if (pending) return pending;
  }
  return {
    status: 200,
    body: await updateTransferStatus(db, maker.id, transferId, input, {
      refuseHeld: true,
      refuseReturnUnderComplianceHold: true,
      chain,
    }),
  };
}

/**
 * The second person's approval: the maker's move, as the maker, in the approval's transaction. With chain
 * settlement an approved release queues the payout, as the direct path does.
 */
export const transferReleaseAction =
  (chain?: StatusMoveRules["chain"]): ApprovalAction =>
  async (tx, row) => {
    const payload = approvalPayload(row, ["release_transfer"]);
    const [request] = await tx
      .select({ id: transferRequests.id, userId: transferRequests.userId })
      .from(transferRequests)
      .where(eq(transferRequests.id, payload.transferId));
    if (!request) throw new AppError("NOT_FOUND", "Transfer request not found");
    const { saved } = await moveTransferStatus(tx, row.makerId, request, payload.input, {
      refuseReturnUnderComplianceHold: true,
      chain,
    });
    return toTransferRequest(saved);
  };

export const approveTransferRelease: ApprovalAction = transferReleaseAction();
