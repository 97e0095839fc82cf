import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    pillarTag: text("pillar_tag").notNull(),
    phoneNumber: text("phone_number"),
    passwordHash: text("password_hash").notNull(),
    isAdmin: boolean("is_admin").notNull().default(false),
    isEmailVerified: boolean("is_email_verified").notNull().default(false),
    status: text("status").notNull().default("active"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    uniqueIndex("users_pillar_tag_lower_key").on(sql`lower(${t.pillarTag})`),
  ],
);

/** Only the SHA-256 of a session id is stored: a leaked table cannot be replayed as cookies. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    publicId: uuid("public_id").notNull().defaultRandom().unique(),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

export const oneTimeCodes = pgTable(
  "one_time_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["verify_email", "reset_password", "change_password"] }).notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("one_time_codes_user_purpose_idx").on(t.userId, t.purpose)],
);

/** Transactional outbox: mail is written with what caused it and delivered by a worker. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    kind: text("kind").notNull(),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorId: uuid("actor_id"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_target_idx").on(t.targetType, t.targetId)],
);

/**
 * One row per customer conversation: the list's order, the unread counters and the ETag all come from
 * here. Every chat write locks this row first, so a conversation's message ids commit in order.
 */
export const chatConversations = pgTable(
  "chat_conversations",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    lastMessageId: bigint("last_message_id", { mode: "number" }).notNull().default(0),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull().defaultNow(),
    unreadBySupport: integer("unread_by_support").notNull().default(0),
    unreadByUser: integer("unread_by_user").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("chat_conversations_last_message_idx").on(t.lastMessageId.desc())],
);

export const chatMessages = pgTable(
  "chat_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The customer whose conversation this is, whoever wrote the message. */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The customer, or the admin who replied. */
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    isFromUser: boolean("is_from_user").notNull(),
    message: text("message").notNull(),
    /** Customer messages: read by support; support replies: read by the customer. */
    readAt: timestamp("read_at", { withTimezone: true }),
    /** When the customer was e-mailed about this unread reply. */
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("chat_messages_user_id_idx").on(t.userId, t.id),
    index("chat_messages_reply_notify_idx")
      .on(t.createdAt)
      .where(sql`${t.isFromUser} = false and ${t.readAt} is null and ${t.notifiedAt} is null`),
    check("chat_messages_message_length", sql`char_length(${t.message}) between 1 and 2000`),
  ],
);

/**
 * One file a user asked to upload: the row exists from the moment the upload URL is handed out, so only
 * its owner can complete it, attach it or read it back. `content_type` is the sniffed type, never the declared one.
 */
export const uploads = pgTable(
  "uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectKey: text("object_key").notNull().unique(),
    status: text("status", { enum: ["pending", "complete", "rejected"] })
      .notNull()
      .default("pending"),
    contentType: text("content_type"),
    sizeBytes: integer("size_bytes"),
    /** S3 ETag of the bytes that were checked: a later overwrite through a still-valid URL is never served. */
    storageEtag: text("storage_etag"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("uploads_user_id_idx").on(t.userId),
    check("uploads_status_check", sql`${t.status} in ('pending', 'complete', 'rejected')`),
    check("uploads_size_check", sql`${t.sizeBytes} is null or ${t.sizeBytes} between 1 and 10485760`),
  ],
);

/**
 * KYC applications; the one with `superseded_at` null is the user's current one. The SSN is stored only as
 * AES-256-GCM ciphertext, an HMAC blind index (for the duplicate check) and its last four digits (for display).
 */
export const kycApplications = pgTable(
  "kyc_applications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountType: text("account_type", { enum: ["personal", "business"] }).notNull(),
    companyName: text("company_name"),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    street: text("street").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zipCode: text("zip_code").notNull(),
    address: text("address").notNull(),
    ssnCiphertext: text("ssn_ciphertext").notNull(),
    ssnIndex: text("ssn_index").notNull(),
    ssnLast4: text("ssn_last4").notNull(),
    drivingLicenseFront: text("driving_license_front"),
    drivingLicenseBack: text("driving_license_back"),
    llcDocument: text("llc_document"),
    einDocument: text("ein_document"),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    adminNotes: text("admin_notes"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedBy: uuid("reviewed_by"),
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("kyc_applications_user_id_idx").on(t.userId, t.createdAt),
    uniqueIndex("kyc_applications_user_current_key").on(t.userId).where(sql`${t.supersededAt} is null`),
    // One person, one account: a live (current, not rejected) application holds its SSN against everyone else.
    uniqueIndex("kyc_applications_ssn_live_key")
      .on(t.ssnIndex)
      .where(sql`${t.supersededAt} is null and ${t.status} <> 'rejected'`),
    check("kyc_applications_status_check", sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check("kyc_applications_account_type_check", sql`${t.accountType} in ('personal', 'business')`),
  ],
);

/** Checking-account requests, opened by a KYC submission; the one with `superseded_at` null is current. */
export const accountRequests = pgTable(
  "account_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kycApplicationId: uuid("kyc_application_id").references(() => kycApplications.id, {
      onDelete: "set null",
    }),
    accountType: text("account_type", { enum: ["personal", "business"] }).notNull(),
    status: text("status", { enum: ["pending", "in_review", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    statusMessage: text("status_message"),
    adminNotes: text("admin_notes"),
    accountNumber: text("account_number").unique(),
    routingNumber: text("routing_number"),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    supersededAt: timestamp("superseded_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("account_requests_user_id_idx").on(t.userId, t.createdAt),
    uniqueIndex("account_requests_user_current_key").on(t.userId).where(sql`${t.supersededAt} is null`),
    check(
      "account_requests_status_check",
      sql`${t.status} in ('pending', 'in_review', 'approved', 'rejected')`,
    ),
    check("account_requests_account_number_check", sql`${t.accountNumber} ~ '^[1-9][0-9]{8}$'`),
  ],
);
