import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/server/db/client";
import { transactions } from "@/server/db/schema";
import { toTransaction } from "@/server/features/accounts/transaction-view";
import { csvCell, startCsv } from "@/server/lib/csv";
import { beforeTimeKey, encodeCursor, exactTime } from "@/server/lib/keyset-page";

const CSV_HEADER = "id,date,type,description,category,status,amount,fee,net_amount";

/** Rows per query: a long history is read in bounded batches, never held whole in memory. */
export const CSV_BATCH_ROWS = 1000;

/**
 * The customer's whole history as CSV text, newest first, one chunk per batch of rows. It is a pull-based
 * generator: the next batch is read only when the response has taken the previous one (backpressure), each
 * batch is its own short query on the (user_id, created_at, id) index (no transaction or connection held for
 * the whole download), and the keyset on the immutable (created_at, id) writes every row exactly once.
 */
export async function* exportTransactionsCsv(db: DbOrTx, userId: string): AsyncGenerator<string> {
  yield `${CSV_HEADER}\r\n`;
  let cursor: string | undefined;
  for (;;) {
    const rows = await db
      .select({ row: transactions, key: exactTime(transactions.createdAt) })
      .from(transactions)
      .where(
        and(eq(transactions.userId, userId), beforeTimeKey(transactions.createdAt, transactions.id, cursor)),
      )
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(CSV_BATCH_ROWS);
    if (rows.length === 0) return;
    let chunk = "";
    for (const { row } of rows) {
      const t = toTransaction(row);
      chunk += `${[t.id, t.date, t.type, t.description, t.category, t.status, t.amount, t.fee, t.netAmount]
        .map(csvCell)
        .join(",")}\r\n`;
    }
    yield chunk;
    if (rows.length < CSV_BATCH_ROWS) return;
    const last = rows[rows.length - 1]!;
    cursor = encodeCursor([last.key, last.row.id]);
  }
}

/** The export with its first batches already read (see startCsv). */
export function startTransactionsCsv(db: DbOrTx, userId: string): Promise<AsyncGenerator<string>> {
  return startCsv(exportTransactionsCsv(db, userId));
}
