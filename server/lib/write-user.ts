import { and, eq, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { afterCommit } from "@/server/db/after-commit";
import type { DbOrTx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { forgetCachedSessions } from "@/server/lib/session";

/**
 * Every change to a `users` row goes through this module (`write-user.test.ts` refuses one written
 * anywhere else). Signed-in sessions are cached with their user row (server/lib/session.ts), so a change
 * forgets the user's cached sessions here and, by broadcast, on every instance — after the commit, so a
 * request racing the transaction cannot cache the old row again. Creating a user is not covered: a new
 * account has no session to forget.
 */

/**
 * Sets `changes` on the user's row, if it also matches `where` (a conditional update). True when the row
 * was changed.
 */
export async function updateUser(
  db: DbOrTx,
  userId: string,
  changes: PgUpdateSetSource<typeof users>,
  { where }: { where?: SQL } = {},
): Promise<boolean> {
  const changed = await db
    .update(users)
    .set(changes)
    .where(where ? and(eq(users.id, userId), where) : eq(users.id, userId))
    .returning({ id: users.id });
  if (changed.length === 0) return false;
  afterCommit(db, () => forgetCachedSessions({ userId }));
  return true;
}

/** Deletes the user's row (its sessions and codes go with it by cascade). True when there was one. */
export async function deleteUserRow(db: DbOrTx, userId: string): Promise<boolean> {
  const deleted = await db.delete(users).where(eq(users.id, userId)).returning({ id: users.id });
  if (deleted.length === 0) return false;
  afterCommit(db, () => forgetCachedSessions({ userId }));
  return true;
}
