import { sql } from "drizzle-orm";
import { z } from "zod";
import { type Database, queryRows } from "@/server/db/client";
import { supportReplyMail } from "@/server/features/chat/reply-notification-mail";
import type { LoopSpec } from "@/server/jobs/loop";
import { enqueueMail, wakeMailWorker } from "@/server/lib/mail/outbox";
import { wantsEmail } from "@/server/lib/notifications";

/** A reply still unread this long after it was sent earns the customer an e-mail. */
export const REPLY_NOTIFY_DELAY_SECONDS = 10 * 60;

const dueConversation = z.object({ user_id: z.string(), email: z.string(), first_name: z.string() });

/**
 * One pass: claims customers with a support reply unread for the delay and not yet mailed about,
 * marks all their unread replies notified and queues one e-mail each, in one transaction. Rows are
 * claimed through the conversation with FOR UPDATE SKIP LOCKED, so any number of instances can run
 * this at once without mailing anyone twice. Returns how many e-mails were queued.
 */
export async function notifyUnreadReplies(
  database: Database,
  {
    delaySeconds = REPLY_NOTIFY_DELAY_SECONDS,
    batchSize = 50,
    publicUrl,
  }: { delaySeconds?: number; batchSize?: number; publicUrl?: string } = {},
): Promise<number> {
  const queued = await database.db.transaction(async (tx) => {
    const rows = await queryRows(tx, sqlDue(delaySeconds, batchSize), dueConversation);
    let count = 0;
    for (const row of rows) {
      const marked = (await queryRows(tx, sqlMarkNotified(row.user_id), markedRow)).length;
      if (marked === 0) continue;
      // Marked all the same: a customer who turned these e-mails off is not asked about again.
      if (!(await wantsEmail(tx, row.user_id, "chat_reply"))) continue;
      await enqueueMail(
        tx,
        supportReplyMail(row.email, { firstName: row.first_name, count: marked, publicUrl }),
      );
      count++;
    }
    return count;
  });
  if (queued > 0) wakeMailWorker();
  return queued;
}

function sqlDue(delaySeconds: number, batchSize: number) {
  return sql`
    select c.user_id, u.email, u.first_name
    from chat_conversations c
    join users u on u.id = c.user_id
    where c.unread_by_user > 0
      and c.user_id in (
        select m.user_id from chat_messages m
        where m.is_from_user = false and m.read_at is null and m.notified_at is null
          and m.created_at <= now() - make_interval(secs => ${delaySeconds}))
    order by c.last_message_id
    limit ${batchSize}
    for update of c skip locked`;
}

// chat_messages.id is a bigint: a string from node-postgres, a number from PGlite; only the count is used.
const markedRow = z.object({ id: z.coerce.string() });

function sqlMarkNotified(userId: string) {
  return sql`
    update chat_messages set notified_at = now()
    where user_id = ${userId} and is_from_user = false and read_at is null and notified_at is null
    returning id`;
}

/**
 * notifyUnreadReplies as a loop of the jobs room: a pass a minute, the first a minute after start. Any number of
 * instances run it (the claim's SKIP LOCKED).
 */
export function replyNotifierLoop(database: Database, publicUrl?: string, pollMs = 60_000): LoopSpec {
  return {
    name: "chat-reply-notifier",
    everyMs: pollMs,
    firstAfterMs: pollMs,
    pass: () => notifyUnreadReplies(database, { publicUrl }),
  };
}
