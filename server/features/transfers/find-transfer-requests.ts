import { and, desc, eq, sql } from "drizzle-orm";
import type { Page, PageQuery } from "@/contract/pages";
import type { AdminTransferRequest, TransferStatus } from "@/contract/transfers";
import type { DbOrTx } from "@/server/db/client";
import { transferRequests, users } from "@/server/db/schema";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";
import { listSearch } from "@/server/lib/customer-search";
import { beforeTimeKey, continuedAfter, exactTime, toPage } from "@/server/lib/keyset-page";

/**
 * The admin queue, one page at a time, newest first, each with its customer. It pages to the end instead of
 * stopping at a fixed row count, so a flood of one customer's requests can never hide another's pending one.
 */
export async function findTransferRequests(
  db: DbOrTx,
  { cursor, limit, q, status }: PageQuery & { status: TransferStatus | "all" },
): Promise<Page<AdminTransferRequest>> {
  const filters = and(
    status === "all" ? undefined : eq(transferRequests.status, status),
    beforeTimeKey(transferRequests.createdAt, transferRequests.id, cursor),
  );
  const search = await listSearch(db, q, {
    table: transferRequests,
    order: { kind: "time", createdAt: transferRequests.createdAt, id: transferRequests.id },
    userId: transferRequests.userId,
    filters,
    ownText: [transferRequests.recipientName, transferRequests.cryptoAddress],
  });
  const rows = await db
    .select({
      request: transferRequests,
      key: exactTime(transferRequests.createdAt),
      // The same rule the release refuses with (compliance_hold), asked only of rows that could still move.
      heldByCompliance: sql<boolean>`(${transferRequests.status} in ('pending', 'processing')
        and ${transferRequests.userId} is not null and compliance_hold(${transferRequests.userId}))`,
      user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
    })
    .from(transferRequests)
    .leftJoin(users, eq(users.id, transferRequests.userId))
    .where(and(filters, search.where))
    .orderBy(desc(transferRequests.createdAt), desc(transferRequests.id))
    .limit(limit + 1);
  const page = toPage(
    rows,
    limit,
    (r) => [r.key, r.request.id],
    (r) => ({
      ...toTransferRequest(r.request),
      user: r.user,
      flaggedAt: r.request.flaggedAt ? r.request.flaggedAt.toISOString() : null,
      heldByCompliance: r.heldByCompliance === true,
    }),
  );
  return continuedAfter(page, search);
}
