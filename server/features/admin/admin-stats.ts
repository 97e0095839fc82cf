import { sql } from "drizzle-orm";
import { z } from "zod";
import { type DbOrTx, queryRows } from "@/server/db/client";
import type { LoopSpec } from "@/server/jobs/loop";

/** Deltas folded per pass: a backlog after an outage folds in several short transactions. */
export const FOLD_BATCH = 50_000;

/**
 * Adds the oldest deltas the writes' triggers appended (migration 0051) into the one admin_stats row and deletes
 * them, in one statement: a reader's snapshot sees them either as deltas or in the row, never both or neither.
 * Two instances folding at once wait on each other's deleted rows and skip them.
 */
export async function foldAdminStats(
  db: DbOrTx,
  batch = FOLD_BATCH,
): Promise<{ done: number; more: boolean }> {
  const [row] = await queryRows(
    db,
    sql`with gone as (
        delete from admin_stats_deltas
        where id in (select id from admin_stats_deltas order by id limit ${batch})
        returning customers, active_accounts, wallet_balance, transactions
      ), sums as (
        select count(*)::int as folded, coalesce(sum(customers), 0) as customers,
          coalesce(sum(active_accounts), 0) as active_accounts, coalesce(sum(wallet_balance), 0) as wallet_balance,
          coalesce(sum(transactions), 0) as transactions
        from gone
      ), folded as (
        update admin_stats s set customers = s.customers + sums.customers,
          active_accounts = s.active_accounts + sums.active_accounts,
          wallet_balance = s.wallet_balance + sums.wallet_balance,
          transactions = s.transactions + sums.transactions, folded_at = now()
        from sums where s.id = 1 and sums.folded > 0
      )
      select folded from sums`,
    z.object({ folded: z.number() }),
  );
  const done = row?.folded ?? 0;
  return { done, more: done >= batch };
}

/** Keeps the deltas a stats read sums to a minute's writes. */
export function adminStatsFoldLoop(db: DbOrTx, everyMs = 60_000): LoopSpec {
  return { name: "admin-stats-fold", everyMs, pass: () => foldAdminStats(db) };
}
