import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";

/**
 * One row per customer conversation: the list's order, the unread counters and the ETag all come from
 * here. Every chat write locks this row first, so a conversation's message ids commit in order.
 */
export const chatConversations = pgTable(
  "chat_conversations",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    lastMessageId: bigint("last_message_id", { mode: "number" }).notNull().default(0),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
    unreadBySupport: integer("unread_by_support").notNull().default(0),
    unreadByUser: integer("unread_by_user").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("chat_conversations_last_message_idx").on(t.lastMessageId.desc())],
);

export const chatMessages = pgTable(
  "chat_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The customer whose conversation this is, whoever wrote the message. */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The customer, or the admin who replied. */
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    isFromUser: boolean("is_from_user").notNull(),
    message: text("message").notNull(),
    /** Customer messages: read by support; support replies: read by the customer. */
    readAt: timestamp("read_at", { withTimezone: true }),
    /** When the customer was e-mailed about this unread reply. */
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("chat_messages_user_id_idx").on(t.userId, t.id),
    index("chat_messages_user_unread_idx").on(t.userId, t.isFromUser).where(sql`${t.readAt} is null`),
    index("chat_messages_reply_notify_idx")
      .on(t.createdAt)
      .where(sql`${t.isFromUser} = false and ${t.readAt} is null and ${t.notifiedAt} is null`),
    check("chat_messages_message_length", sql`char_length(${t.message}) between 1 and 2000`),
  ],
);
