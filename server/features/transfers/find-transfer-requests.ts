import { desc, eq } from "drizzle-orm";
import type { AdminTransferRequest } from "@/contract/transfers";
import type { DbOrTx } from "@/server/db/client";
import { transferRequests, users } from "@/server/db/schema";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";

/** The admin queue: newest first, each with its customer. */
export async function findTransferRequests(db: DbOrTx): Promise<AdminTransferRequest[]> {
  const rows = await db
    .select({
      request: transferRequests,
      user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
    })
    .from(transferRequests)
    .leftJoin(users, eq(users.id, transferRequests.userId))
    .orderBy(desc(transferRequests.createdAt), desc(transferRequests.id))
    .limit(500);
  return rows.map((r) => ({
    ...toTransferRequest(r.request),
    user: r.user,
    flaggedAt: r.request.flaggedAt ? r.request.flaggedAt.toISOString() : null,
  }));
}
