import { sql } from "drizzle-orm";
import { z } from "zod";
import {
  type FreezeAccountInput,
  type FreezeAccountResponse,
  type FreezeLinkStatus,
  type FreezeReason,
  SECURITY_MESSAGES,
} from "@/contract/security";
import type { AppDeps } from "@/server/app-deps";
import { queryRows } from "@/server/db/client";
import { appendChatMessage } from "@/server/features/chat/append-chat-message";
import { FREEZE_TOKEN_PATTERN, hashFreezeToken } from "@/server/features/security/freeze-links";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { notify } from "@/server/lib/notifications";
import { deleteUserSessions } from "@/server/lib/session";
import { updateUser } from "@/server/lib/write-user";

const REPORTED: Record<FreezeReason, string> = {
  new_device: "a sign-in from a new browser",
  password_changed: "a password change",
  second_factor: "a change to my second factor",
  transfer: "a transfer request",
  limit_raised: "a raise of my own daily limit",
};

/** What support reads in the customer's chat: written as the customer's own report, so it counts as unread. */
export function freezeChatMessage(reason: FreezeReason, flaggedTransfers: number): string {
  const flagged =
    flaggedTransfers === 0
      ? "No transfers were pending."
      : `${flaggedTransfers} pending transfer${flaggedTransfers === 1 ? " is" : "s are"} flagged for review.`;
  return `Security alert (sent automatically): I reported ${REPORTED[reason] ?? "a change"} I did not make via the "This wasn't me" link. My account is frozen and every device was signed out. ${flagged}`;
}

// Any stored reason (the column has no check): the chat message falls back on "a change" for one it does not know.
const linkRow = z.object({
  link_id: z.string(),
  user_id: z.string(),
  reason: z.custom<FreezeReason>((r) => typeof r === "string"),
  is_expired: z.boolean(),
  used_at: z.string().nullable(),
  frozen_at: z.string().nullable(),
});
type LinkRow = z.output<typeof linkRow>;

/** What the link would do, spending nothing: the page shows "already frozen" instead of the button. */
export async function checkFreezeLink(deps: AppDeps, input: FreezeAccountInput): Promise<FreezeLinkStatus> {
  if (!FREEZE_TOKEN_PATTERN.test(input.token)) throw invalidLink();
  const [found] = await queryRows(
    deps.database.db,
    sql`
      select l.id as link_id, l.user_id, l.reason, l.expires_at <= now() as is_expired, l.used_at, u.frozen_at
      from freeze_links l join users u on u.id = l.user_id
      where l.token_hash = ${hashFreezeToken(input.token)}`,
    linkRow,
  );
  return { alreadyFrozen: refuseUnusable(found) };
}

/** The refusals a freeze and a check share; true when the account is frozen already (nothing to do). */
function refuseUnusable(found: LinkRow | undefined): boolean {
  if (!found) throw invalidLink();
  if (found.frozen_at !== null) return true;
  if (found.used_at !== null) throw new AppError("freeze_link_used", SECURITY_MESSAGES.linkUsed);
  if (found.is_expired) throw new AppError("freeze_link_expired", SECURITY_MESSAGES.linkExpired);
  return false;
}

function invalidLink() {
  return new AppError("freeze_link_invalid", SECURITY_MESSAGES.linkInvalid);
}

/**
 * "This wasn't me", no sign-in needed: in one transaction the link is spent, the account frozen (and a
 * password reset required), every session and known browser dropped, pending transfers flagged, and an
 * audit row and a chat message written. A frozen account answers "already frozen" and writes nothing.
 */
export async function freezeAccount(
  deps: AppDeps,
  input: FreezeAccountInput,
): Promise<FreezeAccountResponse> {
  if (!FREEZE_TOKEN_PATTERN.test(input.token)) throw invalidLink();
  const tokenHash = hashFreezeToken(input.token);

  const result = await deps.database.db.transaction(async (tx) => {
    // Lock the link and its user: two clicks at once must freeze once, the second seeing it done.
    const [found] = await queryRows(
      tx,
      sql`
        select l.id as link_id, l.user_id, l.reason, l.expires_at <= now() as is_expired, l.used_at, u.frozen_at
        from freeze_links l join users u on u.id = l.user_id
        where l.token_hash = ${tokenHash}
        for update`,
      linkRow,
    );
    if (refuseUnusable(found)) return { userId: found!.user_id, alreadyFrozen: true };

    await tx.execute(sql`update freeze_links set used_at = now() where id = ${found.link_id}`);
    await updateUser(tx, found.user_id, {
      frozenAt: sql`now()`,
      passwordResetRequired: true,
      updatedAt: sql`now()`,
    });
    const sessionsEnded = await deleteUserSessions(tx, found.user_id);
    // A browser the intruder used is "known" now; forgetting every browser brings back alerts and the shared limit.
    await tx.execute(sql`delete from known_devices where user_id = ${found.user_id}`);
    const flagged = (
      await queryRows(
        tx,
        sql`
        update transfer_requests set flagged_at = now(), updated_at = now()
        where user_id = ${found.user_id} and status in ('pending', 'processing') and flagged_at is null
        returning id`,
        z.object({ id: z.string() }),
      )
    ).map((r) => r.id);
    await notify(tx, found.user_id, "security", {
      title: "Account frozen",
      body: "Your account is frozen: no new transfers until our team has checked it with you. Reset your password to sign in again.",
      link: "/contact",
    });
    await writeAudit(tx, {
      actorId: null,
      action: "user.freeze",
      targetType: "user",
      targetId: found.user_id,
      after: { reason: found.reason, sessionsEnded, flaggedTransferIds: flagged },
    });
    await appendChatMessage(tx, {
      userId: found.user_id,
      authorId: null,
      isFromUser: true,
      message: freezeChatMessage(found.reason, flagged.length),
    });
    return { userId: found.user_id, alreadyFrozen: false };
  });
  return result.alreadyFrozen
    ? { message: SECURITY_MESSAGES.alreadyFrozen, alreadyFrozen: true }
    : { message: SECURITY_MESSAGES.frozen, alreadyFrozen: false };
}
