import { and, desc, eq, sql } from "drizzle-orm";
import type { Transaction, TransactionPage } from "@/contract/transactions";
import type { Db, DbOrTx } from "@/server/db/client";
import { preparedPerDatabase } from "@/server/db/prepared";
import { transactions } from "@/server/db/schema";
import { type ChainView, toTransactionsWithHashes } from "@/server/features/accounts/transaction-view";
import { type Conditional, loadConditional, userEtag } from "@/server/lib/conditional-reply";
import { AppError } from "@/server/lib/errors";
import { exactTime } from "@/server/lib/keyset-page";
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

/** "time|id": the time as exact text (microseconds), or milliseconds in a cursor from before decision 066. */
function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
    if (
      !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(\d{3})?Z$/.test(at ?? "") ||
      Number.isNaN(new Date(at!).getTime()) ||
      new Date(at!).toISOString().slice(0, 19) !== at!.slice(0, 19) ||
      !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id ?? "")
    ) {
      throw new Error("bad cursor");
    }
    return { at: at!, id: id! };
  } catch {
    throw new AppError("VALIDATION", "Invalid cursor");
  }
}

const encodeCursor = (key: string, id: string) => Buffer.from(`${key}|${id}`).toString("base64url");

/**
 * Keyset pagination, newest first: stable while new transactions arrive. The row comparison is a range of the
 * (user_id, created_at, id) index, so a deep page reads one page of rows (an OR of the two conditions was a
 * filter over every newer row); the cursor's time is exact to the microsecond, so rows written within one
 * millisecond are not skipped at a page's edge.
 */
export async function findTransactionPage(
  db: DbOrTx,
  userId: string,
  { cursor, limit }: { cursor?: string; limit: number },
  chain?: ChainView,
): Promise<TransactionPage> {
  const after = cursor ? decodeCursor(cursor) : null;
  const found = await db
    .select({ row: transactions, key: exactTime(transactions.createdAt) })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        after
          ? sql`(${transactions.createdAt}, ${transactions.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
          : undefined,
        // Implied by the cursor's test, but plain: the partitions after the cursor's month are pruned (decision 063).
        after ? sql`${transactions.createdAt} <= ${after.at}::timestamptz` : undefined,
      ),
    )
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(limit + 1);
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    items: await toTransactionsWithHashes(
      db,
      page.map((f) => f.row),
      chain,
    ),
    nextCursor: found.length > limit && last ? encodeCursor(last.key, last.row.id) : null,
  };
}
