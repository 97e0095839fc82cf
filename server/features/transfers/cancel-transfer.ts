import { RECEIPT_MESSAGES, type TransferReceipt } from "@/contract/transfers";
import type { Db } from "@/server/db/client";
import { getTransferReceipt } from "@/server/features/transfers/get-transfer-receipt";
import { updateTransferStatus } from "@/server/features/transfers/update-transfer-status";
import { AppError } from "@/server/lib/errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The sender cancels a transfer staff have not picked up yet. It is the admin's cancel (same lock order, same
 * hold release, same audit row with the customer as actor), refused once it left pending, so the hold is
 * released exactly once however many cancels and admin moves race. Refused too while a compliance hold stands,
 * decided under the same locks: a payment to a listed person is blocked, not returned (decision 048).
 */
export async function cancelTransfer(db: Db, userId: string, transferId: string): Promise<TransferReceipt> {
  if (!UUID.test(transferId)) throw new AppError("NOT_FOUND", RECEIPT_MESSAGES.notFound);
  await updateTransferStatus(
    db,
    userId,
    transferId,
    { status: "cancelled" },
    {
      ownerId: userId,
      onlyFrom: ["pending"],
      auditAction: "transfer.cancel_by_customer",
      notFoundMessage: RECEIPT_MESSAGES.notFound,
      conflictMessage: RECEIPT_MESSAGES.cannotCancel,
      refuseUnderComplianceHold: RECEIPT_MESSAGES.underReviewNoCancel,
    },
  );
  return getTransferReceipt(db, userId, transferId);
}
