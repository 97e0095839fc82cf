import { sql } from "drizzle-orm";
import { z } from "zod";
import { CLOSURE_MESSAGES } from "@/contract/closure";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";

/**
 * Account closure's checks that other features make (decision 059): the rules are SQL
 * (server/db/functions/account-closure.sql and the closed_at column), these only ask.
 */

/** Whether the customer ever moved money (has_money_history): such a customer is closed, never deleted. */
export async function hasMoneyHistory(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`select has_money_history(${userId}::uuid) as history`,
    z.object({ history: z.boolean() }),
  );
  return row?.history ?? false;
}

/**
 * Refuses (403 accountClosed) when the account is closed. Call it after locking the user row (share or update):
 * a closure waits for the lock or committed before it, so the answer holds until the caller commits.
 */
export async function refuseClosedAccount(db: DbOrTx, userId: string): Promise<void> {
  const [row] = await queryRows(
    db,
    sql`select closed_at from users where id = ${userId}::uuid`,
    z.object({ closed_at: z.coerce.date().nullable() }),
  );
  if (row?.closed_at) {
    throw new AppError("account_closed", CLOSURE_MESSAGES.accountClosed, {
      closedAt: row.closed_at.toISOString(),
    });
  }
}
