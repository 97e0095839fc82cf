import { and, eq, isNull, or, sql } from "drizzle-orm";
import { AUTH_MESSAGES, AUTH_SERVER_MESSAGES, type UpdatePhoneResponse } from "@/contract/auth";
import type { DbOrTx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { forgetCachedSessions } from "@/server/lib/session";

/** A phone number can be added once; the conditional update makes two racing requests set it only once. */
export async function updatePhone(
  db: DbOrTx,
  userId: string,
  phoneNumber: string,
): Promise<UpdatePhoneResponse> {
  const [row] = await db
    .update(users)
    .set({ phoneNumber, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), or(isNull(users.phoneNumber), eq(users.phoneNumber, ""))))
    .returning({ phoneNumber: users.phoneNumber });
  if (!row) throw new AppError("CONFLICT", AUTH_MESSAGES.phoneLocked, { phoneLocked: true });
  // The signed-in user is cached with the session: the next request must see the new number.
  forgetCachedSessions({ userId });
  return { message: AUTH_SERVER_MESSAGES.phoneUpdated, phoneNumber: row.phoneNumber! };
}
