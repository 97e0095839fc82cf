import type { ChatMessage } from "@/contract/chat";
import type { Tx } from "@/server/db/client";
import { appendChatMessage, toChatMessage } from "@/server/features/chat/append-chat-message";

/** A customer writes to support, in the caller's transaction; `message` is already trimmed and length-checked. */
export async function sendChatMessage(tx: Tx, userId: string, message: string): Promise<ChatMessage> {
  return toChatMessage(await appendChatMessage(tx, { userId, authorId: userId, isFromUser: true, message }));
}
