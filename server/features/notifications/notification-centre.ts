import { sql } from "drizzle-orm";
import { z } from "zod";
import {
  EMAIL_ALWAYS_ON,
  NOTIFICATION_KINDS,
  NOTIFICATION_MESSAGES,
  NOTIFICATIONS_PAGE_SIZE,
  type NotificationItem,
  type NotificationPage,
  type NotificationPreference,
  type NotificationPreferences,
  notificationKind,
  UNREAD_NOTIFICATIONS_CAP,
} from "@/contract/notifications";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";

// The kinds are the table's check constraint (notifications_kind); timestamps come back as their text.
const notificationRow = z.object({
  id: z.string(),
  kind: notificationKind,
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
type Row = z.output<typeof notificationRow>;

const toItem = (row: Row): NotificationItem => ({
  id: row.id,
  kind: row.kind,
  title: row.title,
  body: row.body,
  link: row.link,
  createdAt: new Date(row.created_at).toISOString(),
  isRead: row.read_at !== null,
});

/**
 * The customer's notifications, newest first, one keyset page: an index range on (user_id, id), or on the partial
 * (user_id, id) index of unread rows for the unread filter.
 */
export async function findNotifications(
  db: DbOrTx,
  userId: string,
  { before, unread }: { before?: string; unread?: "true" | "false" },
): Promise<NotificationPage> {
  const rows = await queryRows(
    db,
    sql`select id::text, kind, title, body, link, created_at, read_at from notifications
        where user_id = ${userId}
          ${before ? sql`and id < ${before}::bigint` : sql``}
          ${unread === "true" ? sql`and read_at is null` : sql``}
        order by notifications.id desc limit ${NOTIFICATIONS_PAGE_SIZE + 1}`,
    notificationRow,
  );
  const page = rows.slice(0, NOTIFICATIONS_PAGE_SIZE);
  return {
    items: page.map(toItem),
    nextBefore: rows.length > NOTIFICATIONS_PAGE_SIZE ? page.at(-1)!.id : null,
  };
}

/**
 * The bell's count, exact below UNREAD_NOTIFICATIONS_CAP and the cap from there (the bell shows "99+"): at most
 * that many entries of the partial index on unread rows, however many a customer never read.
 */
export async function countUnreadNotifications(db: DbOrTx, userId: string): Promise<{ unread: number }> {
  const [row] = await queryRows(
    db,
    // Ordered like the index, so the limit stops an index-only scan (a bitmap scan would read every entry first).
    sql`select count(*)::int as unread from (select 1 from notifications
        where user_id = ${userId} and read_at is null order by id desc limit ${UNREAD_NOTIFICATIONS_CAP}) u`,
    z.object({ unread: z.number() }),
  );
  return { unread: row?.unread ?? 0 };
}

/** Marks one of the customer's own notifications read; another customer's id answers 404, as a missing one does. */
export async function markNotificationRead(
  db: DbOrTx,
  userId: string,
  id: string,
): Promise<NotificationItem> {
  const [row] = await queryRows(
    db,
    sql`update notifications set read_at = coalesce(read_at, now())
        where id = ${id}::bigint and user_id = ${userId}
        returning id::text, kind, title, body, link, created_at, read_at`,
    notificationRow,
  );
  if (!row) throw new AppError("NOT_FOUND", NOTIFICATION_MESSAGES.notFound);
  return toItem(row);
}

export async function markAllNotificationsRead(db: DbOrTx, userId: string): Promise<{ marked: number }> {
  const rows = await queryRows(
    db,
    sql`update notifications set read_at = now() where user_id = ${userId} and read_at is null returning id::text`,
    z.object({ id: z.string() }),
  );
  return { marked: rows.length };
}

/** Every kind with its two switches (on unless turned off); security e-mail is shown locked on. */
export async function findNotificationPreferences(
  db: DbOrTx,
  userId: string,
): Promise<NotificationPreferences> {
  const rows = await queryRows(
    db,
    sql`select kind, in_app, email from notification_preferences where user_id = ${userId}`,
    z.object({ kind: notificationKind, in_app: z.boolean(), email: z.boolean() }),
  );
  const chosen = new Map(rows.map((r) => [r.kind, r]));
  return NOTIFICATION_KINDS.map((kind) => ({
    kind,
    inApp: chosen.get(kind)?.in_app ?? true,
    email: EMAIL_ALWAYS_ON.has(kind) ? true : (chosen.get(kind)?.email ?? true),
    emailLocked: EMAIL_ALWAYS_ON.has(kind),
  }));
}

export async function updateNotificationPreference(
  db: DbOrTx,
  userId: string,
  choice: NotificationPreference,
): Promise<NotificationPreferences> {
  if (EMAIL_ALWAYS_ON.has(choice.kind) && !choice.email) {
    throw new AppError("BAD_REQUEST", NOTIFICATION_MESSAGES.securityEmailLocked);
  }
  await db.execute(sql`
    insert into notification_preferences (user_id, kind, in_app, email)
    values (${userId}, ${choice.kind}, ${choice.inApp}, ${choice.email})
    on conflict (user_id, kind) do update set in_app = excluded.in_app, email = excluded.email, updated_at = now()`);
  return findNotificationPreferences(db, userId);
}
