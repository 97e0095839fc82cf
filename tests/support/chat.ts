import type { App } from "@/server/app";
import type { SignedInUser } from "@/tests/support/users";

/** A customer writes to support (POST /api/chat/send); the message goes as given, so tests can send bad ones. */
export const sendChatMessage = (app: App, who: SignedInUser, message: unknown) =>
  app.inject({
    method: "POST",
    url: "/api/chat/send",
    headers: { cookie: who.cookie },
    payload: { message },
  });

/** A staff member answers a customer's conversation. */
export const replyInChat = (app: App, staff: SignedInUser, userId: string, message: string) =>
  app.inject({
    method: "POST",
    url: `/api/admin/chats/${userId}/reply`,
    headers: { cookie: staff.cookie },
    payload: { message },
  });
