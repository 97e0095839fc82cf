import { sql } from "drizzle-orm";
import { z } from "zod";
import { EMAIL_ALWAYS_ON, type NotificationKind } from "@/contract/notifications";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { enqueueMail, enqueueMails } from "@/server/lib/mail/outbox";
import type { MailMessage } from "@/server/lib/mail/templates";

export interface NotificationContent {
  title: string;
  body: string;
  /** An in-app path ("/transfers/…") the notification opens. */
  link?: string | null;
}

/**
 * Tells a customer about something, in the channels they chose for its kind (decision 034): a row in the
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
  const [choice] = await queryRows(
    db,
    sql`select in_app, email from notification_preferences where user_id = ${userId} and kind = ${kind}`,
    z.object({ in_app: z.boolean(), email: z.boolean() }),
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
  const [choice] = await queryRows(
    db,
    sql`select email from notification_preferences where user_id = ${userId} and kind = ${kind}`,
    z.object({ email: z.boolean() }),
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
 * Writes a batch of notifications in a few statements whatever its size (the jobs room's consumers): the customers'
 * choices in one read, the centre's rows in one insert, their mail in one, and one "notifications" notice per
 * customer. The rows' own trigger stays quiet for that insert (pillar.notices_batched, user-events.sql): one notice
 * per row was five statements each and a counter lock held to the commit. The notices go in user id order, so
 * writers naming the same users (the pushes consumer among them) take their counters' locks in one order.
 */
export async function notifyAll(db: DbOrTx, notifications: readonly Notification[]): Promise<void> {
  if (notifications.length === 0) return;
  const pairs = JSON.stringify(notifications.map((n) => ({ user_id: n.userId, kind: n.kind })));
  const choices = await queryRows(
    db,
    sql`select p.user_id, p.kind, p.in_app, p.email from notification_preferences p
        join jsonb_to_recordset(${pairs}::jsonb) as x(user_id uuid, kind text)
          on p.user_id = x.user_id and p.kind = x.kind`,
    z.object({ user_id: z.string(), kind: z.string(), in_app: z.boolean(), email: z.boolean() }),
  );
  const choiceByPair = new Map(choices.map((c) => [`${c.user_id} ${c.kind}`, c]));
  const choiceOf = (n: Notification) => choiceByPair.get(`${n.userId} ${n.kind}`);
  const shown = notifications.filter((n) => choiceOf(n)?.in_app ?? true);
  if (shown.length > 0) {
    const rows = JSON.stringify(
      shown.map((n) => ({
        user_id: n.userId,
        kind: n.kind,
        title: n.content.title.slice(0, 200),
        body: n.content.body.slice(0, 1000),
        link: n.content.link ?? null,
      })),
    );
    await db.execute(sql`
      with quiet as (select set_config('pillar.notices_batched', 'on', true))
      insert into notifications (user_id, kind, title, body, link)
      select x.user_id, x.kind, x.title, x.body, x.link
      from jsonb_to_recordset(${rows}::jsonb) as x(user_id uuid, kind text, title text, body text, link text)
      where exists (select 1 from quiet)`);
    const users = [...new Set(shown.map((n) => n.userId))].sort();
    await db.execute(sql`
      with loud as (select set_config('pillar.notices_batched', 'off', true))
      select emit_user_event(u.id, array['notifications'])
      from unnest(${`{${users.join(",")}}`}::uuid[]) as u(id), loud
      order by u.id`);
  }
  const mails = notifications.filter(
    (n) => n.mail && (EMAIL_ALWAYS_ON.has(n.kind) || (choiceOf(n)?.email ?? true)),
  );
  await enqueueMails(
    db,
    mails.map((n) => n.mail!),
  );
}
