import { is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, DbOrTx, Tx } from "@/server/db/client";

/** Callbacks waiting for the commit of each open transaction (opened through a tracked `db.transaction`). */
const pendingByTx = new WeakMap<Tx, (() => void)[]>();

type OpenTransaction = Db["transaction"];

/**
 * Gives `db.transaction` after-commit callbacks, so every transaction in the app (services call
 * `db.transaction` directly) can defer work to its commit: the callbacks run once it has committed, in the
 * order they were added, and are dropped when it rolls back. A nested transaction (a savepoint) adds to its
 * outer one's. Applied once where each Database is built.
 */
export function trackCommits(db: Db): Db {
  db.transaction = tracked(db.transaction.bind(db));
  return db;
}

function tracked(open: OpenTransaction, outer?: (() => void)[]): OpenTransaction {
  return async (run, config) => {
    const pending = outer ?? [];
    const result = await open((tx) => {
      pendingByTx.set(tx, pending);
      const nested = tx.transaction.bind(tx) as unknown as OpenTransaction;
      tx.transaction = tracked(nested, pending) as unknown as Tx["transaction"];
      return run(tx);
    }, config);
    if (!outer) for (const callback of pending) callback();
    return result;
  };
}

/**
 * Runs `callback` once what was just written through `db` is committed: at the end of the transaction when
 * `db` is one (nothing on rollback), at once otherwise (a statement outside a transaction commits by itself).
 * Process-local state that mirrors the database (the session cache) must change only then: cleared before
 * the commit, a concurrent request could read the old row again and cache it.
 */
export function afterCommit(db: DbOrTx, callback: () => void): void {
  const pending = pendingByTx.get(db as Tx);
  if (pending) pending.push(callback);
  else if (is(db, PgTransaction))
    throw new Error("afterCommit: this transaction was not opened by db.transaction");
  else callback();
}
