import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/server/db/client";
import { transactions } from "@/server/db/schema";
import { toTransaction } from "@/server/features/accounts/transaction-view";
import { beforeTimeKey, encodeCursor, exactTime } from "@/server/lib/keyset-page";

const CSV_HEADER = "id,date,type,description,category,status,amount,fee,net_amount";

/** Rows per query: a long history is read in bounded batches, never held whole in memory. */
export const CSV_BATCH_ROWS = 1000;

/** A CSV cell that a spreadsheet cannot execute (leading =, +, -, @ are neutralised) and that quotes safely. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

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

/**
 * The export with its first batch already read: a database failure before anything is sent still answers as
 * JSON (503) instead of a cut-off download; later batches are read as the client takes the earlier ones.
 */
export async function startTransactionsCsv(db: DbOrTx, userId: string): Promise<AsyncGenerator<string>> {
  const chunks = exportTransactionsCsv(db, userId);
  const started: string[] = [];
  for (let i = 0; i < 2; i++) {
    const next = await chunks.next();
    if (next.done) break;
    started.push(next.value);
  }
  return (async function* () {
    yield* started;
    yield* chunks;
  })();
}
