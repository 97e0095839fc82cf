import type { ChatMessage } from "@/contract/chat";
import type { Db } from "@/server/db/client";
import { appendChatMessage, toChatMessage } from "@/server/features/chat/append-chat-message";

/** A customer writes to support; `message` is already trimmed and length-checked by the contract. */
export async function sendChatMessage(db: Db, userId: string, message: string): Promise<ChatMessage> {
  const row = await db.transaction((tx) =>
    appendChatMessage(tx, { userId, authorId: userId, isFromUser: true, message }),
  );
  return toChatMessage(row);
}
