import { and, asc, eq } from "drizzle-orm";
import type { MessageResponse } from "@/contract/auth";
import { PASSKEY_MESSAGES, type PasskeyInfo } from "@/contract/passkeys";
import type { AppDeps } from "@/server/app-deps";
import type { DbOrTx } from "@/server/db/client";
import { passkeys } from "@/server/db/schema";
import { notifyPasskeyChange } from "@/server/features/auth/passkeys/passkey-mail";
import { isUuid } from "@/server/features/auth/passkeys/webauthn-data";
import { AppError } from "@/server/lib/errors";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import type { SessionUser } from "@/server/lib/session";
import { forgetAdminSecondFactor } from "@/server/lib/session-plugin";

type PasskeyRow = typeof passkeys.$inferSelect;

/** What the settings list shows; never the credential id or public key. */
export function toPasskeyInfo(row: PasskeyRow): PasskeyInfo {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    deviceType: row.deviceType === "multiDevice" || row.deviceType === "singleDevice" ? row.deviceType : null,
    backedUp: row.backedUp,
  };
}

export async function findUserPasskeys(db: DbOrTx, userId: string): Promise<PasskeyInfo[]> {
  const rows = await db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return rows.map(toPasskeyInfo);
}

const notFound = () => new AppError("NOT_FOUND", PASSKEY_MESSAGES.notFound);

/** Renames one of the user's own passkeys; anyone else's id is simply not found. */
export async function renamePasskey(
  db: DbOrTx,
  userId: string,
  passkeyId: string,
  name: string,
): Promise<PasskeyInfo> {
  if (!isUuid(passkeyId)) throw notFound();
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, passkeyId.toLowerCase()), eq(passkeys.userId, userId)))
    .returning();
  if (!row) throw notFound();
  return toPasskeyInfo(row);
}

/** Removes one of the user's own passkeys and tells the owner by e-mail in the same transaction. */
export async function deletePasskey(
  deps: AppDeps,
  user: SessionUser,
  passkeyId: string,
): Promise<MessageResponse> {
  if (!isUuid(passkeyId)) throw notFound();
  await deps.database.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId.toLowerCase()), eq(passkeys.userId, user.id)))
      .returning({ name: passkeys.name });
    if (!row) throw notFound();
    await notifyPasskeyChange(tx, deps, user, { kind: "removed", passkeyName: row.name });
  });
  // An admin whose last factor this was must not keep passing the back office's cached check.
  forgetAdminSecondFactor(user.id);
  wakeMailWorker();
  return { message: PASSKEY_MESSAGES.removed };
}
