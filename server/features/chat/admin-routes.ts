import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  adminChatMessage,
  adminChatMessageList,
  chatConversationPage,
  chatCustomer,
  chatMessagesQuery,
  chatUserParams,
  replyChatInput,
} from "@/contract/chat";
import { pageQuery } from "@/contract/pages";
import { findAdminChatMessages } from "@/server/features/chat/find-chat-messages";
import { findConversations } from "@/server/features/chat/find-conversations";
import { getChatCustomer } from "@/server/features/chat/get-chat-customer";
import { replyToChat } from "@/server/features/chat/reply-to-chat";
import { sendConditional } from "@/server/lib/conditional-reply";
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/** /api/admin/chats*: the support inbox; every route behind requireAdmin (401 signed out, 403 customers). */
export async function adminChatRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/",
    { schema: { querystring: pageQuery, response: { 200: chatConversationPage } } },
    async (request, reply) => {
      const result = await findConversations(db, {
        ...request.query,
        ifNoneMatch: request.headers["if-none-match"],
      });
      return sendConditional(reply, result, () =>
        result.notModified ? { items: [], nextCursor: null } : result.page,
      );
    },
  );

  app.get(
    "/:userId",
    {
      schema: {
        params: chatUserParams,
        querystring: chatMessagesQuery,
        response: { 200: adminChatMessageList },
      },
    },
    async (request, reply) => {
      const result = await findAdminChatMessages(db, request.params.userId, {
        after: request.query.after,
        ifNoneMatch: request.headers["if-none-match"],
      });
      return sendConditional(reply, result, () => (result.notModified ? [] : result.messages));
    },
  );

  app.get(
    "/:userId/customer",
    { schema: { params: chatUserParams, response: { 200: chatCustomer } } },
    (request) => getChatCustomer(db, request.params.userId),
  );

  app.post(
    "/:userId/reply",
    {
      schema: { params: chatUserParams, body: replyChatInput, response: { 200: adminChatMessage } },
      preHandler: keyedLimit(app, {
        name: "chat-reply",
        max: 120,
        key: (request) => request.user?.id ?? null,
      }),
    },
    (request) =>
      replyToChat(db, {
        adminId: signedInUser(request).id,
        userId: request.params.userId,
        message: request.body.message,
      }),
  );
}
