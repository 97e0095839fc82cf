import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { transferRequests } from "@/server/db/schema";
import { findSanctionsHits, recordHits } from "@/server/features/compliance/screen";

/**
 * Staff are about to release a transfer: the list may have changed since it was made, so its address and
 * recipient are screened again, and a hit is filed (committed) before the move is tried. The move itself then
 * refuses under its lock, since the customer now has an open case (see moveTransferStatus).
 */
export async function screenTransferBeforeRelease(
  db: Db,
  transferId: string,
  threshold: number,
): Promise<number> {
  const [transfer] = await db
    .select({
      id: transferRequests.id,
      userId: transferRequests.userId,
      recipientName: transferRequests.recipientName,
      cryptoAddress: transferRequests.cryptoAddress,
      status: transferRequests.status,
    })
    .from(transferRequests)
    .where(eq(transferRequests.id, transferId));
  if (!transfer?.userId || (transfer.status !== "pending" && transfer.status !== "processing")) return 0;
  const hits = await findSanctionsHits(
    db,
    { names: [{ value: transfer.recipientName, type: null }], addresses: [transfer.cryptoAddress] },
    threshold,
  );
  if (hits.length === 0) return 0;
  const userId = transfer.userId;
  const { newHits } = await db.transaction((tx) =>
    recordHits(tx, { userId, point: "transfer_approval", hits, transferId: transfer.id }),
  );
  return newHits;
}
