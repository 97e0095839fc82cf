import { desc, eq, sql } from "drizzle-orm";
import type { ChatConversation } from "@/contract/chat";
import type { Db } from "@/server/db/client";
import { chatConversations, chatMessages, users } from "@/server/db/schema";
import { toChatMessage } from "@/server/features/chat/append-chat-message";
import { etagMatches } from "@/server/lib/conditional-reply";

export type ConversationsResult =
  | { etag: string; notModified: true }
  | { etag: string; notModified: false; conversations: ChatConversation[] };

/**
 * The admin inbox: one row per customer with a conversation, newest activity first. The ETag moves with
 * any new message (largest id), any read (total unread) and any conversation removed with its user.
 */
export async function findConversations(
  db: Db,
  { ifNoneMatch }: { ifNoneMatch?: string },
): Promise<ConversationsResult> {
  const [summary] = await db
    .select({
      newest: sql<string>`coalesce(max(${chatConversations.lastMessageId}), 0)::text`,
      total: sql<string>`count(*)::text`,
      unread: sql<string>`coalesce(sum(${chatConversations.unreadBySupport}), 0)::text`,
    })
    .from(chatConversations);
  const etag = `"chats-${summary!.newest}-${summary!.total}-${summary!.unread}"`;
  if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };

  const rows = await db
    .select({
      userId: chatConversations.userId,
      unreadCount: chatConversations.unreadBySupport,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      pillarTag: users.pillarTag,
      messageId: chatMessages.id,
      message: chatMessages.message,
      isFromUser: chatMessages.isFromUser,
      createdAt: chatMessages.createdAt,
    })
    .from(chatConversations)
    .innerJoin(users, eq(users.id, chatConversations.userId))
    .innerJoin(chatMessages, eq(chatMessages.id, chatConversations.lastMessageId))
    .orderBy(desc(chatConversations.lastMessageId));

  return {
    etag,
    notModified: false,
    conversations: rows.map((r) => ({
      userId: r.userId,
      user: {
        id: r.userId,
        firstName: r.firstName,
        lastName: r.lastName,
        email: r.email,
        pillarTag: r.pillarTag,
      },
      lastMessage: toChatMessage({
        id: r.messageId,
        message: r.message,
        isFromUser: r.isFromUser,
        createdAt: r.createdAt,
      }),
      unreadCount: r.unreadCount,
    })),
  };
}
