import { eq } from "drizzle-orm";
import { type AdminChatMessage, CHAT_MESSAGES } from "@/contract/chat";
import type { Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { appendChatMessage, toAdminChatMessage } from "@/server/features/chat/append-chat-message";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { notify } from "@/server/lib/notifications";

/** Support answers a customer (or writes first), in the caller's transaction; audit-logged in it too. */
export async function replyToChat(
  tx: Tx,
  { adminId, userId, message }: { adminId: string; userId: string; message: string },
): Promise<AdminChatMessage> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("NOT_FOUND", CHAT_MESSAGES.userNotFound);
  const created = await appendChatMessage(tx, { userId, authorId: adminId, isFromUser: false, message });
  // In-app at once; the e-mail is the reply notifier's, after a quiet spell, as the customer chose.
  await notify(tx, userId, "chat_reply", {
    title: "Support replied",
    body: message.length > 140 ? `${message.slice(0, 139)}…` : message,
    link: "/contact",
  });
  await writeAudit(tx, {
    actorId: adminId,
    action: "chat.reply",
    targetType: "user",
    targetId: userId,
    after: { messageId: created.id, length: message.length },
  });
  return toAdminChatMessage(created);
}
