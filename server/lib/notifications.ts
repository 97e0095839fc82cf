import { sql } from "drizzle-orm";
import { EMAIL_ALWAYS_ON, type NotificationKind } from "@/contract/notifications";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { enqueueMail } from "@/server/lib/mail/outbox";
import type { MailMessage } from "@/server/lib/mail/templates";

export interface NotificationContent {
  title: string;
  body: string;
  /** An in-app path ("/transfers/…") the notification opens. */
  link?: string | null;
}

/**
 * Tells a customer about something, in the channels they chose for its kind (issue 32 §2): a row in the
 * notification centre unless they turned in-app off, and `mail` (when given) unless they turned e-mail off;
 * security e-mails go out whatever the setting. Call it with the transaction that makes the change, so a
 * rolled-back change tells no one; the centre's row raises a "notifications" notice on the customer's open
 * streams at commit (server/db/functions/user-events.sql). Money features call this and nothing else.
 */
export async function notify(
  db: DbOrTx,
  userId: string,
  kind: NotificationKind,
  content: NotificationContent,
  mail?: MailMessage,
): Promise<void> {
  const [choice] = await queryRows<{ in_app: boolean; email: boolean }>(
    db,
    sql`select in_app, email from notification_preferences where user_id = ${userId} and kind = ${kind}`,
  );
  if (choice?.in_app ?? true) {
    await db.execute(sql`
      insert into notifications (user_id, kind, title, body, link)
      values (${userId}, ${kind}, ${content.title.slice(0, 200)}, ${content.body.slice(0, 1000)}, ${content.link ?? null})`);
  }
  if (mail && (EMAIL_ALWAYS_ON.has(kind) || (choice?.email ?? true))) await enqueueMail(db, mail);
}

/** Whether the customer takes e-mail for this kind (for mail sent apart from a notification: the chat digest). */
export async function wantsEmail(db: DbOrTx, userId: string, kind: NotificationKind): Promise<boolean> {
  if (EMAIL_ALWAYS_ON.has(kind)) return true;
  const [choice] = await queryRows<{ email: boolean }>(
    db,
    sql`select email from notification_preferences where user_id = ${userId} and kind = ${kind}`,
  );
  return choice?.email ?? true;
}

/** One notification to write: notify's arguments. */
export interface Notification {
  userId: string;
  kind: NotificationKind;
  content: NotificationContent;
  mail?: MailMessage | undefined;
}

/**
 * Writes several notifications in user id order (each user's in the order given): every notification row raises
 * its user's notice, whose counter row stays locked to the commit, so writers naming the same users (the pushes
 * consumer among them) take those locks in one order and never deadlock.
 */
export async function notifyAll(db: DbOrTx, notifications: readonly Notification[]): Promise<void> {
  const ordered = [...notifications].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  for (const n of ordered) await notify(db, n.userId, n.kind, n.content, n.mail);
}
