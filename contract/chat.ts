import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { pageOf, pageQuery } from "@/contract/pages";

/** Spec §8 Chat texts, word for word; the server answers with the same ones. */
export const CHAT_MESSAGES = {
  required: "Please enter a message",
  tooLong: "Message must be at most 2,000 characters",
  afterInvalid: "after must be a positive message id",
  userNotFound: "User not found",
  sent: "Message Sent",
  sentDescription: "Your message has been sent to our support team",
  sendFailed: "Failed to send message",
  replySent: "Reply sent successfully",
  replyFailed: "Failed to send reply",
} as const;

/** The spec leaves the maximum open; 2,000 characters is room for a long question, not for a document. */
export const CHAT_MESSAGE_MAX = 2000;
/** Spec §9: the admin list previews the first 30 characters of the last message. */
export const CHAT_PREVIEW_LENGTH = 30;
/** Spec §9: the conversation refreshes every 5 s. */
export const CHAT_POLL_MS = 5000;

// Control characters other than tab and newline never belong in a chat line (and NUL cannot be stored).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Trimmed plain text, 1–2,000 characters; line breaks kept as "\n". */
export const chatMessageText = z
  .string({ error: CHAT_MESSAGES.required })
  .transform((v) => v.replace(/\r\n?/g, "\n").replace(CONTROL_CHARS, "").trim())
  .pipe(z.string().min(1, CHAT_MESSAGES.required).max(CHAT_MESSAGE_MAX, CHAT_MESSAGES.tooLong));

export const sendChatMessageInput = z.object({ message: chatMessageText });
export type SendChatMessageInput = z.input<typeof sendChatMessageInput>;

/** `?after=<id>`: only messages newer than the one the client already has. */
export const chatMessagesQuery = z.object({
  after: z
    .string({ error: CHAT_MESSAGES.afterInvalid })
    .regex(/^[1-9][0-9]{0,14}$/, CHAT_MESSAGES.afterInvalid)
    .transform(Number)
    .optional(),
});
export type ChatMessagesQuery = z.infer<typeof chatMessagesQuery>;

/** Spec §3 Chat message. `message` is plain text: clients render it as text, never as HTML. */
export const chatMessage = z.object({
  id: z.number().int(),
  message: z.string(),
  isFromUser: z.boolean(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessage>;
export const chatMessageList = z.array(chatMessage);

/** The badge on the dashboard's support entry point. */
export const unreadRepliesResponse = z.object({ unreadCount: z.number().int() });
export type UnreadRepliesResponse = z.infer<typeof unreadRepliesResponse>;

/** As support sees a message: also when the customer read a reply (null while unread). */
export const adminChatMessage = chatMessage.extend({ readAt: z.string().nullable() });
export type AdminChatMessage = z.infer<typeof adminChatMessage>;
export const adminChatMessageList = z.array(adminChatMessage);

export const chatUserSummary = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  pillarTag: z.string(),
});

/** Spec §3 Chat conversation: one per customer who has written or been written to. */
export const chatConversation = z.object({
  userId: z.string(),
  user: chatUserSummary,
  lastMessage: chatMessage,
  unreadCount: z.number().int(),
});
export type ChatConversation = z.infer<typeof chatConversation>;
export const chatConversationPage = pageOf(chatConversation);

export const chatUserParams = z.object({ userId: z.uuid({ error: "Invalid user id" }) });

export const replyChatInput = z.object({ message: chatMessageText });
export type ReplyChatInput = z.input<typeof replyChatInput>;

export const KYC_STATUSES = ["pending", "approved", "rejected"] as const;
export const ACCOUNT_REQUEST_STATUSES = ["pending", "in_review", "approved", "rejected"] as const;

export const chatCustomerTransfer = z.object({
  id: z.string(),
  amount: z.string(),
  recipientName: z.string(),
  status: z.string(),
  createdAt: z.string(),
});

/** Who support is talking to, so most questions are answered without leaving the chat. */
export const chatCustomer = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  pillarTag: z.string(),
  phoneNumber: z.string().nullable(),
  status: z.string(),
  memberSince: z.string(),
  /** null: no KYC application yet ('Not Started'). */
  kycStatus: z.enum(KYC_STATUSES).nullable(),
  /** Masked (`**` day and month, the year); null when there is no application or it predates the question. */
  dateOfBirth: z.string().nullable(),
  /** null: no checking-account request yet. */
  accountRequestStatus: z.enum(ACCOUNT_REQUEST_STATUSES).nullable(),
  totalBalance: z.string(),
  availableBalance: z.string(),
  pendingBalance: z.string(),
  /** The five most recent outgoing transfers, newest first. */
  recentTransfers: z.array(chatCustomerTransfer),
});
export type ChatCustomer = z.infer<typeof chatCustomer>;

/** /api/chat: the signed-in customer's own conversation with support, nobody else's. */
export const CHAT_ENDPOINTS = endpoints({
  // Polled: a current copy is answered 304 from memory.
  "GET /api/chat/messages": { access: "user", query: chatMessagesQuery, replies: { 200: chatMessageList } },
  "GET /api/chat/unread": { access: "user", replies: { 200: unreadRepliesResponse } },
  // An optional Idempotency-Key makes a resend after a lost answer safe (decision 027).
  "POST /api/chat/send": {
    access: "user",
    body: sendChatMessageInput,
    replies: { 200: chatMessage },
    idempotent: true,
    limit: { perMinute: 30, by: "user", bucket: "chat-send" },
  },
});

/** /api/admin/chats: support's inbox; opening a conversation is audited (CHAT_OPEN_AUDIT_WINDOW_MINUTES). */
export const CHAT_ADMIN_ENDPOINTS = endpoints({
  "GET /api/admin/chats": {
    access: ["support"],
    query: pageQuery,
    replies: { 200: chatConversationPage },
    errors: ["invalid_cursor"],
  },
  "GET /api/admin/chats/:userId": {
    access: ["support"],
    params: chatUserParams,
    query: chatMessagesQuery,
    replies: { 200: adminChatMessageList },
    errors: ["NOT_FOUND"],
  },
  "GET /api/admin/chats/:userId/customer": {
    access: ["support"],
    params: chatUserParams,
    replies: { 200: chatCustomer },
    errors: ["NOT_FOUND"],
  },
  // An optional Idempotency-Key makes a resend safe, as the customer's send.
  "POST /api/admin/chats/:userId/reply": {
    access: ["support"],
    params: chatUserParams,
    body: replyChatInput,
    replies: { 200: adminChatMessage },
    errors: ["NOT_FOUND"],
    idempotent: true,
    limit: { perMinute: 120, by: "user", bucket: "chat-reply" },
  },
});
