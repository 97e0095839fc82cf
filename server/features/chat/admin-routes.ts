import type { FastifyInstance, FastifyRequest } from "fastify";
import { CHAT_OPEN_AUDIT_WINDOW_MINUTES, READ_ACTIONS } from "@/contract/audit";
import { CHAT_ADMIN_ENDPOINTS } from "@/contract/chat";
import type { Db } from "@/server/db/client";
import { findAdminChatMessages } from "@/server/features/chat/find-chat-messages";
import { findConversations } from "@/server/features/chat/find-conversations";
import { getChatCustomer } from "@/server/features/chat/get-chat-customer";
import { replyToChat } from "@/server/features/chat/reply-to-chat";
import { adminRouteRole, auditReadOnce } from "@/server/lib/audit-read";
import { sendConditional } from "@/server/lib/conditional-reply";
import { registerEndpoints } from "@/server/lib/endpoints";
import { onceByKey, optionalIdempotencyKey, sendKeyed } from "@/server/lib/idempotency";
import { signedInUser } from "@/server/lib/session-plugin";

/**
 * Opening a customer's chat (messages or the customer panel) is audited once per staff member and
 * conversation per CHAT_OPEN_AUDIT_WINDOW_MINUTES, whether the poll answered 200 or 304: the inbox polls
 * every few seconds and one row per poll would flood the log, while a later visit is a new row.
 */
function auditChatOpened(db: Db, request: FastifyRequest, userId: string): Promise<void> {
  return auditReadOnce(
    db,
    {
      actorId: signedInUser(request).id,
      actorRole: adminRouteRole(request),
      action: READ_ACTIONS.chatOpened,
      targetType: "user",
      targetId: userId,
      subjectUserId: userId,
    },
    CHAT_OPEN_AUDIT_WINDOW_MINUTES,
  );
}

/** /api/admin/chats*: the support inbox; every route behind requireAdmin (its contract's access). */
export async function adminChatRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;

  registerEndpoints(app, CHAT_ADMIN_ENDPOINTS, {
    "GET /api/admin/chats": async (request, reply) => {
      const result = await findConversations(db, {
        ...request.query,
        ifNoneMatch: request.headers["if-none-match"],
      });
      return sendConditional(reply, result, () =>
        result.notModified ? { items: [], nextCursor: null } : result.page,
      );
    },
    "GET /api/admin/chats/:userId": async (request, reply) => {
      const result = await findAdminChatMessages(db, request.params.userId, {
        after: request.query.after,
        ifNoneMatch: request.headers["if-none-match"],
      });
      await auditChatOpened(db, request, request.params.userId);
      return sendConditional(reply, result, () => (result.notModified ? [] : result.messages));
    },
    "GET /api/admin/chats/:userId/customer": async (request) => {
      const customer = await getChatCustomer(db, request.params.userId);
      await auditChatOpened(db, request, request.params.userId);
      return customer;
    },
    "POST /api/admin/chats/:userId/reply": async (request, reply) => {
      const adminId = signedInUser(request).id;
      const { userId } = request.params;
      const { message } = request.body;
      const answer = await onceByKey(
        db,
        {
          userId: adminId,
          scope: "chat-reply",
          key: optionalIdempotencyKey(request),
          request: [userId, message],
        },
        async (tx) => ({ statusCode: 200, body: await replyToChat(tx, { adminId, userId, message }) }),
      );
      return sendKeyed(reply, answer);
    },
  });
}
