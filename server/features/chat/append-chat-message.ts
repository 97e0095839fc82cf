import { eq, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Tx } from "@/server/db/client";
import { chatConversations, chatMessages } from "@/server/db/schema";

export type ChatMessageRow = typeof chatMessages.$inferSelect;

/**
 * Adds one message to a customer's conversation inside the caller's transaction. The conversation row
 * is upserted (and so locked) before the message gets its id: writers to one conversation queue up
 * here, so its ids commit in order and `?after=<id>` can never skip a message that commits late.
 */
export async function appendChatMessage(
  tx: Tx,
  {
    userId,
    authorId,
    isFromUser,
    message,
  }: { userId: string; authorId: string | null; isFromUser: boolean; message: string },
): Promise<ChatMessageRow> {
  const bump = (column: PgColumn) => sql`${column} + 1`;
  await tx
    .insert(chatConversations)
    .values(isFromUser ? { userId, unreadBySupport: 1 } : { userId, unreadByUser: 1 })
    .onConflictDoUpdate({
      target: chatConversations.userId,
      set: isFromUser
        ? { unreadBySupport: bump(chatConversations.unreadBySupport) }
        : { unreadByUser: bump(chatConversations.unreadByUser) },
    });
  const [row] = await tx.insert(chatMessages).values({ userId, authorId, isFromUser, message }).returning();
  await tx
    .update(chatConversations)
    .set({ lastMessageId: row!.id, lastMessageAt: row!.createdAt })
    .where(eq(chatConversations.userId, userId));
  return row!;
}

export function toChatMessage(row: Pick<ChatMessageRow, "id" | "message" | "isFromUser" | "createdAt">) {
  return {
    id: row.id,
    message: row.message,
    isFromUser: row.isFromUser,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toAdminChatMessage(row: ChatMessageRow) {
  return { ...toChatMessage(row), readAt: row.readAt ? row.readAt.toISOString() : null };
}
