import type { Db, Tx } from "@/server/db/client";

const ROLL_BACK = Symbol("roll back");

/**
 * Runs `work` in a transaction that always rolls back and returns what it answered: every check, lock and
 * decision of the real call, nothing kept (after-commit callbacks are dropped with it). A dry run is the real
 * code, not a copy of its checks that could drift from them.
 */
export async function rolledBack<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  let answer: { value: T } | null = null;
  try {
    await db.transaction(async (tx) => {
      answer = { value: await work(tx) };
      throw ROLL_BACK;
    });
  } catch (err) {
    if (err !== ROLL_BACK) throw err;
  }
  if (!answer) throw new Error("rolledBack: the work did not answer");
  return (answer as { value: T }).value;
}
