import type { FastifyInstance } from "fastify";
import { CHAT_ENDPOINTS } from "@/contract/chat";
import { countUnreadReplies, findUserChatMessages } from "@/server/features/chat/find-chat-messages";
import { sendChatMessage } from "@/server/features/chat/send-chat-message";
import { sendConditional } from "@/server/lib/conditional-reply";
import { registerEndpoints } from "@/server/lib/endpoints";
import { onceByKey, optionalIdempotencyKey, sendKeyed } from "@/server/lib/idempotency";
import { signedInUser } from "@/server/lib/session-plugin";

/** /api/chat/*: the signed-in customer's own conversation with support, nobody else's. */
export async function chatRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;

  registerEndpoints(app, CHAT_ENDPOINTS, {
    "GET /api/chat/messages": async (request, reply) => {
      const userId = signedInUser(request).id;
      const { after } = request.query;
      const ifNoneMatch = request.headers["if-none-match"];
      const result = await app.polls.answer(userId, `chat:${after ?? 0}`, ifNoneMatch, () =>
        findUserChatMessages(db, userId, { after, ifNoneMatch }),
      );
      return sendConditional(reply, result, () => (result.notModified ? [] : result.messages));
    },
    "GET /api/chat/unread": (request) => countUnreadReplies(db, signedInUser(request).id),
    "POST /api/chat/send": async (request, reply) => {
      const userId = signedInUser(request).id;
      const { message } = request.body;
      // An optional Idempotency-Key makes a resend after a lost answer safe (decision 027).
      const answer = await onceByKey(
        db,
        { userId, scope: "chat-send", key: optionalIdempotencyKey(request), request: message },
        async (tx) => ({ statusCode: 200, body: await sendChatMessage(tx, userId, message) }),
      );
      return sendKeyed(reply, answer);
    },
  });
}
