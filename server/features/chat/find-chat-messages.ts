import { and, asc, eq, gt } from "drizzle-orm";
import { type AdminChatMessage, CHAT_MESSAGES, type ChatMessage } from "@/contract/chat";
import type { Db } from "@/server/db/client";
import { chatMessages, users } from "@/server/db/schema";
import { toAdminChatMessage, toChatMessage } from "@/server/features/chat/append-chat-message";
import {
  type ConversationState,
  conversationEtag,
  getConversationState,
  markConversationRead,
} from "@/server/features/chat/conversation-state";
import { etagMatches, userEtag } from "@/server/lib/conditional-reply";
import { AppError } from "@/server/lib/errors";

export interface PollOptions {
  /** Only messages with a larger id. */
  after?: number;
  /** The client's If-None-Match header. */
  ifNoneMatch?: string;
}

/** Either a fresh list with its ETag, or "not modified" (the route answers 304 with no body). */
export type PollResult<T> =
  | { etag: string; notModified: true }
  | { etag: string; notModified: false; messages: T[] };

function selectMessages(db: Db, userId: string, after: number | undefined) {
  return db
    .select()
    .from(chatMessages)
    .where(
      after
        ? and(eq(chatMessages.userId, userId), gt(chatMessages.id, after))
        : eq(chatMessages.userId, userId),
    )
    .orderBy(asc(chatMessages.id));
}

/**
 * The signed-in customer's conversation, oldest first; reading it marks support's replies read. A repeat
 * poll with nothing new costs one primary-key read and answers 304.
 */
export async function findUserChatMessages(
  db: Db,
  userId: string,
  { after, ifNoneMatch }: PollOptions,
): Promise<PollResult<ChatMessage>> {
  let state: ConversationState | null = await getConversationState(db, userId);
  if (state && state.unreadByUser > 0) state = await markConversationRead(db, userId, "user");
  // Bound to the user: two empty conversations look alike, and one's copy must never validate the other's.
  const etag = userEtag("chat-user", userId, conversationEtag("user", state, after));
  if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };
  const rows = state ? await selectMessages(db, userId, after) : [];
  return { etag, notModified: false, messages: rows.map(toChatMessage) };
}

/** One customer's conversation as support sees it; opening it marks the customer's messages read. */
export async function findAdminChatMessages(
  db: Db,
  userId: string,
  { after, ifNoneMatch }: PollOptions,
): Promise<PollResult<AdminChatMessage>> {
  let state: ConversationState | null = await getConversationState(db, userId);
  if (!state) {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!user) throw new AppError("NOT_FOUND", CHAT_MESSAGES.userNotFound);
  } else if (state.unreadBySupport > 0) {
    state = await markConversationRead(db, userId, "support");
  }
  const etag = conversationEtag("admin", state, after);
  if (etagMatches(ifNoneMatch, etag)) return { etag, notModified: true };
  const rows = state ? await selectMessages(db, userId, after) : [];
  return { etag, notModified: false, messages: rows.map(toAdminChatMessage) };
}

/** Support replies the customer has not read yet: the dashboard badge. */
export async function countUnreadReplies(db: Db, userId: string): Promise<{ unreadCount: number }> {
  const state = await getConversationState(db, userId);
  return { unreadCount: state?.unreadByUser ?? 0 };
}
