import { eq, isNull, or, sql } from "drizzle-orm";
import { AUTH_MESSAGES, AUTH_SERVER_MESSAGES, type UpdatePhoneResponse } from "@/contract/auth";
import type { DbOrTx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { phoneInE164 } from "@/server/features/auth/phone";
import { AppError } from "@/server/lib/errors";
import { updateUser } from "@/server/lib/write-user";

/** A phone number can be added once; the conditional update makes two racing requests set it only once. */
export async function updatePhone(db: DbOrTx, userId: string, typed: string): Promise<UpdatePhoneResponse> {
  const phoneNumber = phoneInE164(typed);
  const updated = await updateUser(
    db,
    userId,
    { phoneNumber, updatedAt: sql`now()` },
    { where: or(isNull(users.phoneNumber), eq(users.phoneNumber, "")) },
  );
  if (!updated) throw new AppError("phone_locked", AUTH_MESSAGES.phoneLocked);
  return { message: AUTH_SERVER_MESSAGES.phoneUpdated, phoneNumber };
}
