import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { UNREAD_NOTIFICATIONS_CAP } from "@/contract/notification-cap";

/** What the notification centre tells a customer about (decision 034), each with an in-app and an e-mail switch. */
export const NOTIFICATION_KINDS = [
  "transfer_status",
  "money_in",
  "security",
  "chat_reply",
  "statement_ready",
  "account_decision",
  "money_request",
] as const;
export const notificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKind>;

/** Settings → Notifications: the label of each kind. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  transfer_status: "Transfer updates",
  money_in: "Deposits and credits",
  security: "Security alerts",
  chat_reply: "Support replies",
  statement_ready: "Statements",
  account_decision: "Application and account decisions",
  money_request: "Money requests",
};

/** Security e-mails (new device, factor changes, freeze) always go out: the customer may be the one locked out. */
export const EMAIL_ALWAYS_ON: ReadonlySet<NotificationKind> = new Set(["security"]);

/** Kept for 13 months, then swept by housekeeping. */
export const NOTIFICATION_RETENTION_MONTHS = 13;
export const NOTIFICATIONS_PAGE_SIZE = 20;

export const notificationItem = z.object({
  id: z.string(),
  kind: notificationKind,
  title: z.string(),
  body: z.string(),
  /** An in-app path to open ("/transfers/…"), or null. */
  link: z.string().nullable(),
  createdAt: z.string(),
  isRead: z.boolean(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationPageQuery = z.object({
  /** Keyset: the last id of the page before (newest first). */
  before: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional(),
  unread: z.enum(["true", "false"]).optional(),
});

export const notificationPage = z.object({
  items: z.array(notificationItem),
  /** Pass as `before` for the next (older) page; null on the last one. */
  nextBefore: z.string().nullable(),
});
export type NotificationPage = z.infer<typeof notificationPage>;

export { UNREAD_NOTIFICATIONS_CAP };
export const unreadNotifications = z.object({
  unread: z.number().int().nonnegative().max(UNREAD_NOTIFICATIONS_CAP),
});
export type UnreadNotifications = z.infer<typeof unreadNotifications>;

export const notificationPreference = z.object({
  kind: notificationKind,
  inApp: z.boolean(),
  email: z.boolean(),
});
export type NotificationPreference = z.infer<typeof notificationPreference>;

export const notificationPreferences = z.array(notificationPreference.extend({ emailLocked: z.boolean() }));
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

export const NOTIFICATION_MESSAGES = {
  notFound: "Notification not found",
  securityEmailLocked: "Security e-mails cannot be turned off.",
  markedAllRead: "All notifications marked as read",
  preferencesSaved: "Notification settings saved",
} as const;

/** A notification's id in a path: its bigint as digits. */
export const notificationIdParams = z.object({ id: z.string().regex(/^\d{1,18}$/) });

/** The notification centre (decision 034): the signed-in customer's own notifications and their channel choices. */
export const NOTIFICATION_ENDPOINTS = endpoints({
  "GET /api/notifications": {
    access: "user",
    query: notificationPageQuery,
    replies: { 200: notificationPage },
  },
  "GET /api/notifications/unread": { access: "user", replies: { 200: unreadNotifications } },
  "POST /api/notifications/:id/read": {
    access: "user",
    params: notificationIdParams,
    replies: { 200: notificationItem },
    errors: ["NOT_FOUND"],
  },
  "POST /api/notifications/read-all": {
    access: "user",
    replies: { 200: z.object({ marked: z.number().int() }) },
  },
  "GET /api/notifications/preferences": { access: "user", replies: { 200: notificationPreferences } },
  // Security e-mails cannot be turned off (400).
  "PUT /api/notifications/preferences": {
    access: "user",
    body: notificationPreference,
    replies: { 200: notificationPreferences },
    errors: ["BAD_REQUEST"],
  },
});
