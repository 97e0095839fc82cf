import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { preparedPerDatabase } from "@/server/db/prepared";
import { chatConversations, chatMessages } from "@/server/db/schema";

export type ConversationState = Pick<
  typeof chatConversations.$inferSelect,
  "lastMessageId" | "unreadBySupport" | "unreadByUser"
>;

const EMPTY: ConversationState = { lastMessageId: 0, unreadBySupport: 0, unreadByUser: 0 };

/** One primary-key read: what every poll looks at first. */
const conversationStateQuery = preparedPerDatabase((db) =>
  db
    .select({
      lastMessageId: chatConversations.lastMessageId,
      unreadBySupport: chatConversations.unreadBySupport,
      unreadByUser: chatConversations.unreadByUser,
    })
    .from(chatConversations)
    .where(eq(chatConversations.userId, sql.placeholder("userId")))
    .prepare("chat_conversation_state"),
);

export async function getConversationState(db: Db, userId: string): Promise<ConversationState | null> {
  const [row] = await conversationStateQuery(db).execute({ userId });
  return row ?? null;
}

/**
 * Marks the other side's messages read: `reader` "user" reads support replies, "support" reads the
 * customer's messages. Locks the conversation row first, like every chat write, so a message arriving
 * meanwhile stays unread and counted. Returns the state after the change.
 */
export async function markConversationRead(
  db: Db,
  userId: string,
  reader: "user" | "support",
): Promise<ConversationState> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({
        lastMessageId: chatConversations.lastMessageId,
        unreadBySupport: chatConversations.unreadBySupport,
        unreadByUser: chatConversations.unreadByUser,
      })
      .from(chatConversations)
      .where(eq(chatConversations.userId, userId))
      .for("update");
    if (!locked) return EMPTY;
    const readsUserMessages = reader === "support";
    await tx
      .update(chatMessages)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(chatMessages.userId, userId),
          eq(chatMessages.isFromUser, readsUserMessages),
          isNull(chatMessages.readAt),
        ),
      );
    const counters = readsUserMessages ? { unreadBySupport: 0 } : { unreadByUser: 0 };
    await tx.update(chatConversations).set(counters).where(eq(chatConversations.userId, userId));
    return { ...locked, ...counters };
  });
}

/**
 * A strong validator for one view of a conversation: its newest id, the unread state that view shows and
 * the `after` asked for. The customer never sees whether support read their messages, so their view
 * leaves that counter out and an admin opening the chat does not wake every customer poll.
 */
export function conversationEtag(
  view: "user" | "admin",
  state: ConversationState | null,
  after?: number,
): string {
  const s = state ?? EMPTY;
  const supportUnread = view === "admin" ? s.unreadBySupport : 0;
  return `"chat-${view}-${s.lastMessageId}-${supportUnread}-${s.unreadByUser}-${after ?? 0}"`;
}
