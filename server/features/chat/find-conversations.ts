import { createHash } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { ChatConversation } from "@/contract/chat";
import type { Page, PageQuery } from "@/contract/pages";
import type { Db } from "@/server/db/client";
import { chatConversations, chatMessages, users } from "@/server/db/schema";
import { toChatMessage } from "@/server/features/chat/append-chat-message";
import { etagMatches } from "@/server/lib/conditional-reply";
import { listSearch } from "@/server/lib/customer-search";
import { beforeNumberKey, continuedAfter, toPage } from "@/server/lib/keyset-page";

export type ConversationsResult =
  | { etag: string; notModified: true }
  | { etag: string; notModified: false; page: Page<ChatConversation> };

/**
 * The admin inbox, one page at a time: one row per customer with a conversation, newest activity first
 * (keyset on the conversation's last message id, which its index serves). The ETag moves with any new message
 * (largest id), any read (total unread) and any conversation removed with its user, and names the page asked
 * for, so each page's copy validates only for that page.
 */
export async function findConversations(
  db: Db,
  { ifNoneMatch, cursor, limit, q }: PageQuery & { ifNoneMatch?: string },
): Promise<ConversationsResult> {
  const [summary] = await db
    .select({
      newest: sql<string>`coalesce(max(${chatConversations.lastMessageId}), 0)::text`,
      total: sql<string>`count(*)::text`,
      unread: sql<string>`coalesce(sum(${chatConversations.unreadBySupport}), 0)::text`,
    })
    .from(chatConversations);
  const pageId = createHash("sha256")
    .update(JSON.stringify([cursor ?? "", limit, q ?? ""]))
    .digest("base64url")
    .slice(0, 16);
  const etag = `"chats-${summary!.newest}-${summary!.total}-${summary!.unread}-${pageId}"`;
  if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };

  const filters = beforeNumberKey(chatConversations.lastMessageId, cursor);
  const search = await listSearch(db, q, {
    table: chatConversations,
    order: { kind: "number", column: chatConversations.lastMessageId },
    userId: chatConversations.userId,
    filters,
  });
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
    .where(and(filters, search.where))
    .orderBy(desc(chatConversations.lastMessageId))
    .limit(limit + 1);

  return {
    etag,
    notModified: false,
    page: continuedAfter(
      toPage(
        rows,
        limit,
        (r) => [String(r.messageId)],
        (r) => ({
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
        }),
      ),
      search,
    ),
  };
}
