import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  chatMessage,
  chatMessageList,
  chatMessagesQuery,
  sendChatMessageInput,
  unreadRepliesResponse,
} from "@/contract/chat";
import { countUnreadReplies, findUserChatMessages } from "@/server/features/chat/find-chat-messages";
import { sendChatMessage } from "@/server/features/chat/send-chat-message";
import { sendConditional } from "@/server/lib/conditional-reply";
import { onceByKey, optionalIdempotencyKey, sendKeyed } from "@/server/lib/idempotency";
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

/** /api/chat/*: the signed-in customer's own conversation with support, nobody else's. */
export async function chatRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireUser);

  app.get(
    "/messages",
    { schema: { querystring: chatMessagesQuery, response: { 200: chatMessageList } } },
    async (request, reply) => {
      const userId = signedInUser(request).id;
      const { after } = request.query;
      const ifNoneMatch = request.headers["if-none-match"];
      const result = await app.polls.answer(userId, `chat:${after ?? 0}`, ifNoneMatch, () =>
        findUserChatMessages(db, userId, { after, ifNoneMatch }),
      );
      return sendConditional(reply, result, () => (result.notModified ? [] : result.messages));
    },
  );

  app.get("/unread", { schema: { response: { 200: unreadRepliesResponse } } }, (request) =>
    countUnreadReplies(db, signedInUser(request).id),
  );

  app.post(
    "/send",
    {
      schema: { body: sendChatMessageInput, response: { 200: chatMessage } },
      preHandler: keyedLimit(app, { name: "chat-send", max: 30, key: (request) => request.user?.id ?? null }),
    },
    async (request, reply) => {
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
  );
}
