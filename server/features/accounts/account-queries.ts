import { and, desc, eq, lt, lte, or, sql } from "drizzle-orm";
import type { Transaction, TransactionPage } from "@/contract/transactions";
import type { Db, DbOrTx } from "@/server/db/client";
import { preparedPerDatabase } from "@/server/db/prepared";
import { transactions } from "@/server/db/schema";
import { type ChainView, toTransactionsWithHashes } from "@/server/features/accounts/transaction-view";
import { type Conditional, loadConditional, userEtag } from "@/server/lib/conditional-reply";
import { AppError } from "@/server/lib/errors";
import { findWallet, walletBalances } from "@/server/lib/ledger";

export const RECENT_TRANSACTIONS = 50;

/** The customer's display balances (walletBalances). */
export async function getBalances(db: DbOrTx, userId: string) {
  return walletBalances(await findWallet(db, userId));
}

export async function findRecentTransactions(
  db: DbOrTx,
  userId: string,
  chain?: ChainView,
): Promise<Transaction[]> {
  const rows = await db
    .select()
    .from(transactions)
    .where(eq(transactions.userId, userId))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(RECENT_TRANSACTIONS);
  return toTransactionsWithHashes(db, rows, chain);
}

/**
 * What the recent list's ETag hangs on: a digest of exactly the rows it shows, whole, so any change to
 * one of them (status, notes, amounts) or a new one moves it, and of each one's payout (its hash appears when
 * it is broadcast and its confirmations count up, with no change to the row). One small row back instead of fifty.
 */
const recentTransactionsVersionQuery = preparedPerDatabase((db) =>
  db
    .select({
      v: sql<
        string | null
      >`md5(string_agg(t::text || coalesce((select p.status || coalesce(p.mined_hash, '') || p.confirmations || p.updated_at::text
        from payouts p where t.source_type = 'transfer_request' and p.transfer_request_id = t.source_id), ''),
        ',' order by t.created_at desc, t.id desc))`,
    })
    .from(
      sql`(select * from ${transactions} where ${transactions.userId} = ${sql.placeholder("userId")}
           order by ${transactions.createdAt} desc, ${transactions.id} desc limit ${sql.raw(String(RECENT_TRANSACTIONS))}) t`,
    )
    .prepare("recent_transactions_version"),
);

export async function recentTransactionsVersion(db: Db, userId: string): Promise<string> {
  const [row] = await recentTransactionsVersionQuery(db).execute({ userId });
  return row?.v ?? "none";
}

/** GET /api/transactions/recent as a conditional request. */
export async function findRecentTransactionsIfChanged(
  db: Db,
  userId: string,
  ifNoneMatch: string | undefined,
  chain?: ChainView,
): Promise<Conditional<Transaction[]>> {
  const etag = userEtag("recent", userId, await recentTransactionsVersion(db, userId));
  return loadConditional(ifNoneMatch, etag, () => findRecentTransactions(db, userId, chain));
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [time, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
    const createdAt = new Date(time);
    if (Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) throw new Error("bad cursor");
    return { createdAt, id };
  } catch {
    throw new AppError("VALIDATION", "Invalid cursor");
  }
}

const encodeCursor = (row: { createdAt: Date; id: string }) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString("base64url");

/** Keyset pagination, newest first: stable while new transactions arrive. */
export async function findTransactionPage(
  db: DbOrTx,
  userId: string,
  { cursor, limit }: { cursor?: string; limit: number },
  chain?: ChainView,
): Promise<TransactionPage> {
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        after
          ? or(
              lt(transactions.createdAt, after.createdAt),
              and(eq(transactions.createdAt, after.createdAt), lt(transactions.id, after.id)),
            )
          : undefined,
        // Implied by the cursor's test, but plain: the partitions after the cursor's month are pruned (decision 063).
        after ? lte(transactions.createdAt, after.createdAt) : undefined,
      ),
    )
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: await toTransactionsWithHashes(db, page, chain),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
  };
}
