import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { SECURITY_MESSAGES } from "@/contract/security";
import { SELF_LIMIT_MESSAGES, SEND_BLOCK_UNDO_HOURS } from "@/contract/self-limits";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { sendBlockUndoLinks } from "@/server/db/schema";
import {
  FREEZE_TOKEN_PATTERN,
  hashFreezeToken,
  publicBaseUrl,
} from "@/server/features/security/freeze-links";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { notify } from "@/server/lib/notifications";
import { deleteUserSessions } from "@/server/lib/session";
import { updateUser } from "@/server/lib/write-user";

/**
 * "This wasn't me" for a block on crypto sends (decision 047). Switching the block on e-mails a
 * single-use link, good for SEND_BLOCK_UNDO_HOURS, to the "This wasn't me" page (`for=send-block` beside the token
 * in the fragment, so neither reaches a server log). Following it undoes the block, and, since someone who could
 * prove the second factor or the password switched it on, ends every session and asks for a new password, as a
 * freeze does, without freezing: the point is to let the customer's money move again.
 */

/** Stores the link (its SHA-256 and the cooldown that ran before) in the caller's transaction; returns its URL. */
export async function issueSendBlockUndoLink(
  tx: DbOrTx,
  deps: Pick<AppDeps, "config">,
  { userId, previousBlockedUntil }: { userId: string; previousBlockedUntil: Date | null },
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await tx.insert(sendBlockUndoLinks).values({
    userId,
    tokenHash: hashFreezeToken(token),
    previousBlockedUntil,
    expiresAt: sql`now() + make_interval(hours => ${SEND_BLOCK_UNDO_HOURS})`,
  });
  return `${publicBaseUrl(deps.config)}/this-wasnt-me#for=send-block&token=${token}`;
}

const linkRow = z.object({
  id: z.string(),
  user_id: z.string(),
  previous_blocked_until: z.coerce.date().nullable(),
  is_expired: z.boolean(),
  used_at: z.coerce.date().nullable(),
});

/** POST /api/account/send-block/undo: no sign-in needed, answered like a freeze link when it cannot act. */
export async function undoSendBlock(deps: AppDeps, token: string): Promise<{ message: string }> {
  if (!FREEZE_TOKEN_PATTERN.test(token)) throw invalidLink();
  await deps.database.db.transaction(async (tx) => {
    // Locked: two clicks at once undo once, the second finds the link spent.
    const [link] = await queryRows(
      tx,
      sql`select id, user_id, previous_blocked_until, expires_at <= now() as is_expired, used_at
          from send_block_undo_links where token_hash = ${hashFreezeToken(token)} for update`,
      linkRow,
    );
    if (!link) throw invalidLink();
    if (link.used_at) throw new AppError("freeze_link_used", SECURITY_MESSAGES.linkUsed);
    if (link.is_expired) throw new AppError("freeze_link_expired", SECURITY_MESSAGES.linkExpired);
    await tx.execute(sql`update send_block_undo_links set used_at = now() where id = ${link.id}`);
    const [lifted] = await queryRows(
      tx,
      sql`select lift_send_block(${link.user_id}::uuid, ${link.previous_blocked_until?.toISOString() ?? null}::timestamptz) as lifted`,
      z.object({ lifted: z.boolean() }),
    );
    await updateUser(tx, link.user_id, { passwordResetRequired: true, updatedAt: sql`now()` });
    const sessionsEnded = await deleteUserSessions(tx, link.user_id);
    // A browser the intruder used is "known" now; forgetting every browser brings back the new-device alerts.
    await tx.execute(sql`delete from known_devices where user_id = ${link.user_id}`);
    await notify(tx, link.user_id, "security", {
      title: "Block on crypto sends undone",
      body: "You reported that you did not block crypto sends. The block is undone, every device was signed out, and you need a new password to sign in.",
      link: "/settings",
    });
    await writeAudit(tx, {
      actorId: null,
      action: "self_limits.block_undone",
      targetType: "user",
      targetId: link.user_id,
      after: { blockWasInForce: lifted!.lifted, sessionsEnded },
    });
  });
  return { message: SELF_LIMIT_MESSAGES.undone };
}

function invalidLink() {
  return new AppError("freeze_link_invalid", SECURITY_MESSAGES.linkInvalid);
}
