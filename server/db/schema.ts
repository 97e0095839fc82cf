import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { HitScoreParts } from "@/contract/compliance";
import { MONEY_EVENT_KINDS } from "@/contract/monitoring";
import type { StaffRole } from "@/contract/staff";

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
    /** Back-office roles (contract/staff.ts); empty for customers. */
    staffRoles: text("staff_roles").array().$type<StaffRole[]>().notNull().default(sql`'{}'::text[]`),
    /** Derived from staffRoles, never written: the spec's isAdmin means "holds any staff role". */
    isAdmin: boolean("is_admin").notNull().generatedAlwaysAs(sql`cardinality(staff_roles) > 0`),
    isEmailVerified: boolean("is_email_verified").notNull().default(false),
    status: text("status").notNull().default("active"),
    /** When the current password was chosen; ADMIN_EMAILS only counts a proof of the e-mail made after it. */
    passwordSetAt: timestamp("password_set_at", { withTimezone: true }).notNull().defaultNow(),
    /** Last time the owner proved the e-mail (verification, reset or change code). */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    /** Set by "This wasn't me": no new transfers until staff lift it. */
    frozenAt: timestamp("frozen_at", { withTimezone: true }),
    /** After a freeze the owner must reset the password before signing in again. */
    passwordResetRequired: boolean("password_reset_required").notNull().default(false),
    /** Account closure (0049, decision 059): money in and out shut, the login kept for statements. */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** Who closed it: the customer themselves or a staff member. */
    closedBy: uuid("closed_by"),
    closureReason: text("closure_reason"),
    /** When the retention job erased the identity data (KYC documents, SSN, date of birth, address, phone). */
    identityErasedAt: timestamp("identity_erased_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    uniqueIndex("users_pillar_tag_lower_key").on(sql`lower(${t.pillarTag})`),
    // Admin lists page by keyset on (created_at, id), newest first.
    index("users_created_id_idx").on(t.createdAt, t.id),
    check(
      "users_staff_roles_known",
      sql`${t.staffRoles} <@ array['support', 'compliance', 'finance', 'owner']::text[]`,
    ),
    check(
      "users_closure_consistent",
      sql`(${t.closedAt} is null) = (${t.closedBy} is null) and (${t.identityErasedAt} is null or ${t.closedAt} is not null)`,
    ),
    index("users_closed_unerased_idx")
      .on(t.closedAt, t.id)
      .where(sql`${t.closedAt} is not null and ${t.identityErasedAt} is null`),
    // Back-office search by a fragment (pg_trgm, 0051, decision 061).
    index("users_email_trgm_idx").using("gin", sql`${t.email} gin_trgm_ops`),
    index("users_pillar_tag_trgm_idx").using("gin", sql`${t.pillarTag} gin_trgm_ops`),
    index("users_name_trgm_idx").using("gin", sql`(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
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

/** A TOTP authenticator (RFC 6238). Unconfirmed until the first code is entered; the secret is sealed with DATA_KEY. */
export const totpFactors = pgTable("totp_factors", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretSealed: text("secret_sealed").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  /** The last 30-second step accepted: a code of that step or earlier is never accepted again. */
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: createdAt(),
});

/**
 * Consecutive wrong second-factor proofs per account, wherever they were checked (decision 018): at the limit
 * the codes are locked until the owner proves the e-mail (a password reset). One row per account that failed.
 */
export const secondFactorGuards = pgTable("second_factor_guards", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  failures: integer("failures").notNull().default(0),
  lockedAt: timestamp("locked_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Ten single-use recovery codes per user, stored hashed. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId)],
);

/** WebAuthn credentials (passkeys). */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** base64url credential id as the authenticator reports it. */
    credentialId: text("credential_id").notNull().unique(),
    /** base64url COSE public key. */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: jsonb("transports").$type<string[]>(),
    deviceType: text("device_type"),
    backedUp: boolean("backed_up").notNull().default(false),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("passkeys_user_idx").on(t.userId)],
);

/**
 * Short-lived, single-use challenges: a half-done login waiting for its second factor (5 minutes), a
 * WebAuthn registration or assertion, a step-up. Only the hash of the token the client holds is stored.
 */
export const authChallenges = pgTable(
  "auth_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").unique(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", {
      enum: ["login", "passkey_register", "passkey_login", "step_up", "transfer"],
    }).notNull(),
    /** WebAuthn challenge (base64url), when the purpose has one. */
    challenge: text("challenge"),
    data: jsonb("data").$type<Record<string, unknown>>(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("auth_challenges_user_idx").on(t.userId),
    index("auth_challenges_expires_idx").on(t.expiresAt),
  ],
);

/** Browsers that have signed in to an account: new-device alerts and login throttling exemptions. */
export const knownDevices = pgTable(
  "known_devices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the long-lived device cookie. */
    tokenHash: text("token_hash").notNull(),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("known_devices_user_token_key").on(t.userId, t.tokenHash),
    // Sign-in moves the device cookie by its hash alone (0055).
    index("known_devices_token_hash_idx").on(t.tokenHash),
  ],
);

/** Single-use "This wasn't me" links (7 days) mailed with security events; using one freezes the account. */
export const freezeLinks = pgTable(
  "freeze_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** What the mail was about: new_device, password_changed, second_factor, transfer. */
    reason: text("reason").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("freeze_links_user_idx").on(t.userId)],
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
    /** The customer the row concerns (whatever the target type), for search and the customer's access log. */
    subjectUserId: uuid("subject_user_id"),
    /** The staff role that authorised the action or read; null for customers' own actions. */
    actorRole: text("actor_role"),
    /** Why staff did it, where the action asks for one (an SSN reveal). */
    reason: text("reason"),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_target_idx").on(t.targetType, t.targetId),
    // Audit search pages newest first (id desc) within one actor, one customer or one action.
    index("audit_log_actor_idx").on(t.actorId, t.id),
    index("audit_log_subject_idx").on(t.subjectUserId, t.id),
    index("audit_log_action_idx").on(t.action, t.id),
    index("audit_log_created_at_idx").on(t.createdAt),
  ],
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
    index("chat_messages_user_unread_idx").on(t.userId, t.isFromUser).where(sql`${t.readAt} is null`),
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
    /** `receiving`: bytes are streaming in through the app right now (one PUT per link at a time). */
    status: text("status", { enum: ["pending", "receiving", "complete", "rejected"] })
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
    // Today's bytes per user (the daily upload cap) and the sweep of old unattached uploads.
    index("uploads_user_completed_idx").on(t.userId, t.completedAt),
    index("uploads_created_at_idx").on(t.createdAt),
    check("uploads_status_check", sql`${t.status} in ('pending', 'receiving', 'complete', 'rejected')`),
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
    /** YYYY-MM-DD; null on applications made before it was asked (compliance sees them flagged). */
    dateOfBirth: date("date_of_birth", { mode: "string" }),
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
    index("kyc_applications_created_id_idx").on(t.createdAt, t.id),
    // The KYC queue's status filter (0051).
    index("kyc_applications_status_created_id_idx").on(t.status, t.createdAt, t.id),
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
    index("account_requests_created_id_idx").on(t.createdAt, t.id),
    index("account_requests_status_created_id_idx").on(t.status, t.createdAt, t.id),
    uniqueIndex("account_requests_user_current_key").on(t.userId).where(sql`${t.supersededAt} is null`),
    check(
      "account_requests_status_check",
      sql`${t.status} in ('pending', 'in_review', 'approved', 'rejected')`,
    ),
    check("account_requests_account_number_check", sql`${t.accountNumber} ~ '^[1-9][0-9]{8}$'`),
    // Back-office search by the last four digits (0051).
    index("account_requests_last4_idx")
      .on(sql`right(${t.accountNumber}, 4)`)
      .where(sql`${t.accountNumber} is not null`),
  ],
);

// ── Money: double-entry ledger (DESIGN: Money) ─────────────────────────────────────────────────────────

/**
 * One wallet per user plus system accounts. Wallets cache balance and held, updated in the same
 * transaction as their postings; system accounts keep 0 there (their balance is the sum of postings).
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    code: text("code").notNull().unique(),
    /** savings: a customer's savings account (decision 068), its owner in savings_accounts. */
    kind: text("kind", { enum: ["wallet", "system", "savings"] }).notNull(),
    userId: uuid("user_id")
      .unique()
      .references(() => users.id, { onDelete: "set null" }),
    balance: bigint("balance", { mode: "number" }).notNull().default(0),
    held: bigint("held", { mode: "number" }).notNull().default(0),
    /** What a reversed deposit left the customer owing: available may be this far below zero, no further (0046, decision 056). */
    returnedOwed: bigint("returned_owed", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check("ledger_accounts_available_not_negative", sql`${t.balance} - ${t.held} >= -${t.returnedOwed}`),
    check("ledger_accounts_returned_owed_not_negative", sql`${t.returnedOwed} >= 0`),
    check("ledger_accounts_held_not_negative", sql`${t.held} >= 0`),
    // MAX_CENTS ($10 billion): repeated credits can never carry a cached balance toward 2^53 cents.
    check("ledger_accounts_balance_within_cap", sql`${t.balance} <= 1000000000000`),
  ],
);

/** One business event; its postings sum to zero. */
export const journalEntries = pgTable(
  "journal_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    description: text("description").notNull(),
    referenceType: text("reference_type"),
    referenceId: text("reference_id"),
    actorId: uuid("actor_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("journal_entries_reference_idx").on(t.referenceType, t.referenceId),
    // A maker's credits in the last 24 hours (the maker-checker window).
    index("journal_entries_actor_time_idx").on(t.actorId, t.createdAt),
  ],
);

export const postings = pgTable(
  "postings",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => journalEntries.id),
    accountId: uuid("account_id")
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: bigint("amount", { mode: "number" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("postings_entry_idx").on(t.entryId),
    // INCLUDE (amount) in 0055: a month's sums are index-only.
    index("postings_account_created_idx").on(t.accountId, t.createdAt),
    check("postings_amount_not_zero", sql`${t.amount} <> 0`),
  ],
);

/** Money set aside on a wallet (an outgoing transfer awaiting approval); captured or released exactly once. */
export const holds = pgTable(
  "holds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The wallet (no foreign key since 0042: place_hold writes it under that wallet's lock). */
    accountId: uuid("account_id").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    status: text("status", { enum: ["open", "captured", "released"] })
      .notNull()
      .default("open"),
    referenceType: text("reference_type").notNull(),
    referenceId: text("reference_id").notNull(),
    createdAt: createdAt(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
  },
  (t) => [
    check("holds_amount_positive", sql`${t.amount} > 0`),
    index("holds_open_account_idx").on(t.accountId).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * What a customer sees in their history; `entryId` is set when the money actually moved (exactly once).
 * Partitioned by month of created_at on PostgreSQL (migration 0053, decision 063): the primary key is each
 * partition's own, so nothing references it by foreign key (verifyLedger looks for orphans instead).
 */
export const transactions = pgTable(
  "transactions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    type: text("type", { enum: ["credit", "debit", "incoming_payment", "other"] }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    fee: bigint("fee", { mode: "number" }).notNull().default(0),
    netAmount: bigint("net_amount", { mode: "number" }).notNull(),
    description: text("description").notNull(),
    category: text("category").notNull().default("other"),
    status: text("status", {
      // blocked: a transfer to a listed person whose money compliance moved to blocked property (decision 048).
      enum: [
        "initiated",
        "pending",
        "in_review",
        "processing",
        "completed",
        "failed",
        "cancelled",
        "blocked",
      ],
    }).notNull(),
    adminNotes: text("admin_notes"),
    sourceType: text("source_type", {
      enum: [
        "transfer_request",
        "incoming_payment",
        "admin",
        "adjustment",
        "usdc_deposit",
        "tag_payment",
        "savings",
      ],
    }).notNull(),
    sourceId: uuid("source_id"),
    entryId: uuid("entry_id").references(() => journalEntries.id),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("transactions_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("transactions_created_id_idx").on(t.createdAt, t.id),
    // closure_blocker and a statement's pending lines: the customer's few unfinished rows (0055).
    index("transactions_user_in_flight_idx")
      .on(t.userId)
      .where(sql`${t.status} in ('initiated', 'pending', 'in_review', 'processing')`),
    index("transactions_entry_idx").on(t.entryId).where(sql`${t.entryId} is not null`),
    // The admin list's status filter (0051).
    index("transactions_status_created_id_idx").on(t.status, t.createdAt, t.id),
    check("transactions_amount_positive", sql`${t.amount} > 0`),
    check("transactions_fee_valid", sql`${t.fee} >= 0 and ${t.netAmount} = ${t.amount} - ${t.fee}`),
  ],
);

/** Outgoing USDC transfer requested by a customer; its amount is held until an admin settles it. */
export const transferRequests = pgTable(
  "transfer_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    amount: bigint("amount", { mode: "number" }).notNull(),
    fee: bigint("fee", { mode: "number" }).notNull(),
    netAmount: bigint("net_amount", { mode: "number" }).notNull(),
    recipientName: text("recipient_name").notNull(),
    recipientAccount: text("recipient_account"),
    recipientRouting: text("recipient_routing").notNull(),
    purpose: text("purpose").notNull(),
    category: text("category").notNull(),
    paymentMethod: text("payment_method").notNull(),
    cryptoAddress: text("crypto_address").notNull(),
    status: text("status", { enum: ["pending", "processing", "completed", "failed", "cancelled", "blocked"] })
      .notNull()
      .default("pending"),
    adminNotes: text("admin_notes"),
    /** Set when the customer froze the account while this transfer was pending: staff must look first. */
    flaggedAt: timestamp("flagged_at", { withTimezone: true }),
    /** Its hold and pending debit, written with it by create_transfer_request (no foreign keys since 0042). */
    holdId: uuid("hold_id"),
    transactionId: uuid("transaction_id"),
    /** The America/New_York calendar day it was requested on: the daily limit's bucket. */
    limitDay: text("limit_day").notNull(),
    /** When staff first moved it to processing ("under review" on the receipt's timeline). */
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    /** When it reached completed, failed or cancelled: set in the same transaction as that move. */
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /** A scheduled run's own reference, 'schedule:<id>:<date>' (0035): one transfer per run, kept for good. */
    scheduleRunKey: text("schedule_run_key"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("transfer_requests_user_day_idx").on(t.userId, t.limitDay),
    uniqueIndex("transfer_requests_schedule_run_key_idx")
      .on(t.scheduleRunKey)
      .where(sql`${t.scheduleRunKey} is not null`),
    index("transfer_requests_created_id_idx").on(t.createdAt, t.id),
    // The admin desk opens on pending requests: one range scan however many settled ones there are.
    index("transfer_requests_status_created_id_idx").on(t.status, t.createdAt, t.id),
    // Many customers paying one address (monitoring, 0026).
    index("transfer_requests_address_created_idx").on(sql`lower(${t.cryptoAddress})`, t.createdAt),
    // The blocking rule's "this customer paid this address lately" and closure's transfers in flight (0055).
    index("transfer_requests_user_address_created_idx").on(
      t.userId,
      sql`lower(${t.cryptoAddress})`,
      t.createdAt,
    ),
    index("transfer_requests_user_in_flight_idx")
      .on(t.userId)
      .where(sql`${t.status} in ('pending', 'processing')`),
    check(
      "transfer_requests_amounts_valid",
      sql`${t.amount} > 0 and ${t.fee} >= 0 and ${t.netAmount} = ${t.amount} - ${t.fee}`,
    ),
  ],
);

/**
 * Who paid an address (0054, decision 064): one row per address and customer, with their first and last transfer
 * request there, kept by a trigger on transfer_requests. The many-to-one rule reads this, not the transfers.
 */
export const addressSenders = pgTable(
  "address_senders",
  {
    address: text("address").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: "address_senders_pkey", columns: [t.address, t.userId] }),
    index("address_senders_address_last_idx").on(t.address, t.lastAt),
    index("address_senders_user_idx").on(t.userId),
  ],
);

export const incomingPayments = pgTable(
  "incoming_payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    amount: bigint("amount", { mode: "number" }).notNull(),
    description: text("description").notNull(),
    paymentFor: text("payment_for").notNull(),
    fromAccount: text("from_account").notNull(),
    fromRouting: text("from_routing").notNull(),
    toAccount: text("to_account"),
    toRouting: text("to_routing"),
    recipientName: text("recipient_name").notNull(),
    status: text("status", { enum: ["pending", "processing", "completed", "failed", "cancelled"] })
      .notNull()
      .default("pending"),
    adminNotes: text("admin_notes"),
    transactionId: uuid("transaction_id"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("incoming_payments_created_id_idx").on(t.createdAt, t.id),
    index("incoming_payments_user_created_idx").on(t.userId, t.createdAt),
    index("incoming_payments_status_created_id_idx").on(t.status, t.createdAt, t.id),
    check("incoming_payments_amount_positive", sql`${t.amount} > 0`),
  ],
);

/** A replayed Idempotency-Key returns the stored first response instead of moving money twice. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    statusCode: integer("status_code").notNull(),
    response: jsonb("response").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/** Per-user dashboard texts an admin can override; a missing row or column means the spec's default. */
export const dashboardContent = pgTable("dashboard_content", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  welcomeTitle: text("welcome_title"),
  welcomeMessage: text("welcome_message"),
  balanceLabel: text("balance_label"),
  availableLabel: text("available_label"),
  pendingLabel: text("pending_label"),
  cardName: text("card_name"),
  cardNumber: text("card_number"),
  statusTitle: text("status_title"),
  statusMessage: text("status_message"),
  transactionTitle: text("transaction_title"),
  quickActionTitle: text("quick_action_title"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid("updated_by"),
});

/**
 * A customer's address book for USDC transfers: a name for an address they send to. One address once per
 * customer, whatever its case (the unique index); at most RECIPIENT_LIMIT rows each, checked under a lock.
 */
export const savedRecipients = pgTable(
  "saved_recipients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    address: text("address").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("saved_recipients_user_address_key").on(t.userId, sql`lower(${t.address})`),
    // Back-office search by an address (0051).
    index("saved_recipients_address_idx").on(sql`lower(${t.address})`),
    check("saved_recipients_name_length", sql`char_length(${t.name}) between 1 and 60`),
    check("saved_recipients_address_length", sql`char_length(${t.address}) between 32 and 100`),
  ],
);

/**
 * Maker-checker: a staff change above the threshold waits here until a different staff member with the right
 * role approves it (then it runs, once, in the approval's transaction) or rejects it (nothing moves).
 */
export const approvals = pgTable(
  "approvals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", {
      enum: [
        "incoming_payment",
        "credit",
        "balance_adjustment",
        "kyc_reset",
        "unfreeze",
        "transfer_release",
        "payout_settled_outside",
        "send_block_lift",
        "deposit_return",
        "savings_rate",
      ],
    }).notNull(),
    /**
     * The customer it concerns; null once that customer is deleted (the approval can then only be rejected), and
     * for a change that concerns no one customer (a savings rate).
     */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The row it acts on when one exists already (payment, transaction, KYC application, user): one pending per target. */
    targetKey: text("target_key"),
    /** What will be done: the original request, replayed through the same service function on approval. */
    payload: jsonb("payload").notNull(),
    /** Amount in cents for money kinds (the credit, or the adjustment's difference). */
    amount: bigint("amount", { mode: "number" }),
    before: jsonb("before").notNull(),
    after: jsonb("after").notNull(),
    reason: text("reason").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    makerId: uuid("maker_id").notNull(),
    makerRole: text("maker_role").notNull(),
    checkerId: uuid("checker_id"),
    checkerRole: text("checker_role"),
    decisionReason: text("decision_reason"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** Credits only: the maker's and the customer's 24-hour credit totals, this one included, when it was asked for. */
    makerWindowTotal: bigint("maker_window_total", { mode: "number" }),
    customerWindowTotal: bigint("customer_window_total", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    // The Approvals tab: pending first, then newest first, paged by keyset.
    index("approvals_queue_idx").on(sql`(${t.status} = 'pending')`, t.createdAt, t.id),
    index("approvals_user_idx").on(t.userId),
    uniqueIndex("approvals_pending_target_key")
      .on(t.kind, t.targetKey)
      .where(sql`${t.status} = 'pending' and ${t.targetKey} is not null`),
    check("approvals_reason_present", sql`length(trim(${t.reason})) > 0`),
    check(
      "approvals_decided_consistent",
      sql`(${t.status} = 'pending') = (${t.decidedAt} is null and ${t.checkerId} is null)`,
    ),
    check("approvals_checker_not_maker", sql`${t.checkerId} is null or ${t.checkerId} <> ${t.makerId}`),
  ],
);

/** One load of OFAC's files: a whole snapshot, versioned; exactly one is active (decision 025). */
export const sanctionsLists = pgTable(
  "sanctions_lists",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    version: integer("version").notNull(),
    source: text("source", { enum: ["cli", "upload"] }).notNull(),
    /** Each file's name, SHA-256, size and record count. */
    files: jsonb("files")
      .notNull()
      .$type<{ name: string; sha256: string; bytes: number; records: number }[]>(),
    entryCount: integer("entry_count").notNull(),
    nameCount: integer("name_count").notNull(),
    addressCount: integer("address_count").notNull(),
    loadedBy: uuid("loaded_by"),
    isActive: boolean("is_active").notNull().default(false),
    loadedAt: timestamp("loaded_at", { withTimezone: true }).notNull().defaultNow(),
    rescreenedAt: timestamp("rescreened_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("sanctions_lists_version_key").on(t.version),
    uniqueIndex("sanctions_lists_one_active_key").on(t.isActive).where(sql`${t.isActive}`),
    check("sanctions_lists_source_check", sql`${t.source} in ('cli', 'upload')`),
  ],
);

export const sanctionsEntries = pgTable(
  "sanctions_entries",
  {
    listId: uuid("list_id")
      .notNull()
      .references(() => sanctionsLists.id, { onDelete: "cascade" }),
    /** `SDN` or `CONS` (the consolidated non-SDN files): ent_num is unique within one source. */
    source: text("source").notNull(),
    entNum: integer("ent_num").notNull(),
    name: text("name").notNull(),
    sdnType: text("sdn_type").notNull(),
    programs: text("programs").notNull(),
    /** Dates of birth from the remarks: `YYYY-MM-DD`, or `YYYY` when the list gives a year only. */
    birthDates: jsonb("birth_dates").notNull().$type<string[]>(),
  },
  (t) => [primaryKey({ name: "sanctions_entries_pk", columns: [t.listId, t.source, t.entNum] })],
);

export const sanctionsNames = pgTable(
  "sanctions_names",
  {
    listId: uuid("list_id")
      .notNull()
      .references(() => sanctionsLists.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    entNum: integer("ent_num").notNull(),
    /** `primary`, or ALT.CSV's alt_type: `aka`, `fka`, `nka`. */
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    normalised: text("normalised").notNull(),
  },
  (t) => [index("sanctions_names_list_idx").on(t.listId)],
);

export const sanctionsAddresses = pgTable(
  "sanctions_addresses",
  {
    listId: uuid("list_id")
      .notNull()
      .references(() => sanctionsLists.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    entNum: integer("ent_num").notNull(),
    /** The code after "Digital Currency Address - ": ETH, USDC, USDT, XBT, TRX… */
    currency: text("currency").notNull(),
    address: text("address").notNull(),
    /** Lower case: addresses match exactly, case-insensitively. */
    addressKey: text("address_key").notNull(),
  },
  (t) => [index("sanctions_addresses_key_idx").on(t.listId, t.addressKey)],
);

/** One open case per customer at a time: every hit while it is open joins it. */
export const complianceCases = pgTable(
  "compliance_cases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** `confirmed`: decided before decision 032 (a true match, money held); new cases end in the other four. */
    status: text("status", { enum: ["open", "cleared", "confirmed", "restricted", "frozen", "filed"] })
      .notNull()
      .default("open"),
    decisionNote: text("decision_note"),
    /** The compliance member working the case. */
    assignedTo: uuid("assigned_to").references(() => users.id, { onDelete: "set null" }),
    /** The SAR draft's narrative, written by compliance. */
    narrative: text("narrative").notNull().default(""),
    decidedBy: uuid("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("compliance_cases_one_open_key").on(t.userId).where(sql`${t.status} = 'open'`),
    index("compliance_cases_queue_idx").on(t.status, t.openedAt, t.id),
    index("compliance_cases_user_status_idx").on(t.userId, t.status),
    check(
      "compliance_cases_status_check",
      sql`${t.status} in ('open', 'cleared', 'confirmed', 'restricted', 'frozen', 'filed')`,
    ),
    check("compliance_cases_decided_consistent", sql`(${t.status} = 'open') = (${t.decidedAt} is null)`),
  ],
);

/** One re-screen of every customer against one list version, run in batches by the jobs room (0043, decision 053). */
export const rescreenRuns = pgTable(
  "rescreen_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    listId: uuid("list_id")
      .notNull()
      .references(() => sanctionsLists.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["queued", "running", "done", "superseded"] })
      .notNull()
      .default("queued"),
    /** The last customer (by id) whose batch committed: a restart goes on after it. */
    cursor: uuid("cursor"),
    /** Customers to screen, counted when the run starts. */
    total: integer("total"),
    customers: integer("customers").notNull().default(0),
    addresses: integer("addresses").notNull().default(0),
    newHits: integer("new_hits").notNull().default(0),
    queuedAt: timestamp("queued_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("rescreen_runs_list_key").on(t.listId),
    index("rescreen_runs_unfinished_idx").on(t.queuedAt).where(sql`${t.status} in ('queued', 'running')`),
    check("rescreen_runs_status_check", sql`${t.status} in ('queued', 'running', 'done', 'superseded')`),
  ],
);

/** The month-end statement run (0052, decision 062): one a month, its cursor the last user id done. */
export const statementRuns = pgTable(
  "statement_runs",
  {
    month: text("month").primaryKey(),
    status: text("status", { enum: ["running", "done"] })
      .notNull()
      .default("running"),
    cursor: uuid("cursor"),
    /** Wallets opened before the month ended, counted when the run was queued. */
    total: integer("total").notNull(),
    done: integer("done").notNull().default(0),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** The checking phase's end (0057, decision 069): the savings phase runs after it. */
    checkingDoneAt: timestamp("checking_done_at", { withTimezone: true }),
    /** The last savings account (by id) whose month's statement is stored. */
    savingsCursor: uuid("savings_cursor"),
    /** Savings accounts open in the month, counted when the run was queued. */
    savingsTotal: integer("savings_total").notNull().default(0),
    savingsDone: integer("savings_done").notNull().default(0),
  },
  (t) => [
    check("statement_runs_status_check", sql`${t.status} in ('running', 'done')`),
    check("statement_runs_month_check", sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

/** A closed month's statement figures per customer, written once by the run; the PDF is drawn from them on demand. */
export const statements = pgTable(
  "statements",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    month: text("month").notNull(),
    walletId: uuid("wallet_id").notNull(),
    opening: bigint("opening", { mode: "number" }).notNull(),
    moneyIn: bigint("money_in", { mode: "number" }).notNull(),
    moneyOut: bigint("money_out", { mode: "number" }).notNull(),
    fees: bigint("fees", { mode: "number" }).notNull(),
    closing: bigint("closing", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
    digest: text("digest").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "statements_pkey", columns: [t.userId, t.month] }),
    check("statements_balanced_check", sql`${t.closing} = ${t.opening} + ${t.moneyIn} + ${t.moneyOut}`),
  ],
);

/**
 * A savings account's statement figures for a month (0057, decision 069), written once by the month-end run after
 * the month's interest was credited (or the account closed in it); the PDF is drawn from them on demand.
 */
export const savingsStatements = pgTable(
  "savings_statements",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => savingsAccounts.accountId),
    month: text("month").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    opening: bigint("opening", { mode: "number" }).notNull(),
    deposits: bigint("deposits", { mode: "number" }).notNull(),
    withdrawals: bigint("withdrawals", { mode: "number" }).notNull(),
    interest: bigint("interest", { mode: "number" }).notNull(),
    closing: bigint("closing", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
    days: integer("days").notNull(),
    balanceDays: bigint("balance_days", { mode: "number" }).notNull(),
    /** Regulation DD's Annual Percentage Yield Earned, percent to two decimals. */
    apyEarned: numeric("apy_earned", { precision: 9, scale: 2 }).notNull(),
    digest: text("digest").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "savings_statements_pkey", columns: [t.accountId, t.month] }),
    check("savings_statements_month_check", sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check(
      "savings_statements_balanced_check",
      sql`${t.closing} = ${t.opening} + ${t.deposits} + ${t.withdrawals} + ${t.interest}`,
    ),
    index("savings_statements_user_idx").on(t.userId, t.month),
  ],
);

/** A screening hit: what was screened, where, against which list entry, with the score. */
export const complianceHits = pgTable(
  "compliance_hits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    userId: uuid("user_id"),
    /** The same customer, subject, list entry and transfer never make a second hit (re-screens are idempotent). */
    dedupeKey: text("dedupe_key").notNull(),
    screeningPoint: text("screening_point").notNull(),
    subjectType: text("subject_type", { enum: ["name", "address"] }).notNull(),
    subject: text("subject").notNull(),
    matched: text("matched").notNull(),
    score: doublePrecision("score").notNull(),
    listVersion: integer("list_version").notNull(),
    listSource: text("list_source").notNull(),
    entNum: integer("ent_num").notNull(),
    programs: text("programs").notNull(),
    transferId: uuid("transfer_id"),
    /** The USDC deposit whose sender was listed (0033). */
    depositId: uuid("deposit_id"),
    /** Why the name scored what it did, as the matcher answered it (0043); null for addresses and older hits. */
    scoreParts: jsonb("score_parts").$type<HitScoreParts>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("compliance_hits_dedupe_key").on(t.dedupeKey),
    index("compliance_hits_case_idx").on(t.caseId, t.createdAt),
    index("compliance_hits_transfer_idx").on(t.transferId),
    check("compliance_hits_subject_type_check", sql`${t.subjectType} in ('name', 'address')`),
  ],
);

/** A transaction-monitoring alert (0026, decision 031): the rule, its score and the evidence it saw, on a case. */
export const monitoringAlerts = pgTable(
  "monitoring_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    rule: text("rule").notNull(),
    score: doublePrecision("score").notNull(),
    /** Holds the customer's money out while the case is open, like a sanctions hit. */
    blocking: boolean("blocking").notNull(),
    eventKind: text("event_kind", { enum: MONEY_EVENT_KINDS }).notNull(),
    /** The transaction (money in) or transfer request (money out) the rule judged. */
    eventId: uuid("event_id").notNull(),
    transferId: uuid("transfer_id"),
    evidence: jsonb("evidence").$type<Record<string, unknown>>().notNull(),
    /** The same rule on the same event never makes a second alert. */
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("monitoring_alerts_dedupe_key").on(t.dedupeKey),
    index("monitoring_alerts_case_idx").on(t.caseId, t.createdAt),
    index("monitoring_alerts_user_idx").on(t.userId, t.createdAt),
    index("monitoring_alerts_queue_idx").on(t.createdAt, t.id),
    check(
      "monitoring_alerts_event_kind_check",
      sql`${t.eventKind} in ('credit', 'deposit', 'transfer', 'tag_out', 'tag_in')`,
    ),
    check("monitoring_alerts_score_check", sql`${t.score} >= 0 and ${t.score} <= 1`),
  ],
);

/** A compliance member's note on a case: never shown to the customer. */
export const complianceCaseComments = pgTable(
  "compliance_case_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("compliance_case_comments_case_idx").on(t.caseId, t.createdAt)],
);

/** A file compliance uploaded (the same uploads, limits and type checks as KYC documents) attached to a case. */
export const complianceCaseDocuments = pgTable(
  "compliance_case_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    uploadId: uuid("upload_id")
      .notNull()
      .references(() => uploads.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    addedBy: uuid("added_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("compliance_case_documents_upload_key").on(t.caseId, t.uploadId),
    index("compliance_case_documents_upload_idx").on(t.uploadId),
  ],
);

/** Another customer compliance linked to a case (shared address, device, counterparty). */
export const complianceCaseLinks = pgTable(
  "compliance_case_links",
  {
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    note: text("note").notNull(),
    addedBy: uuid("added_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "compliance_case_links_pk", columns: [t.caseId, t.userId] })],
);

/** A decision on a case: proposed by one compliance member (maker), taking effect when another approves. */
export const complianceCaseDecisions = pgTable(
  "compliance_case_decisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    decision: text("decision", {
      enum: ["clear", "restrict", "freeze", "file", "lift", "reject_transfer", "block_transfer"],
    }).notNull(),
    note: text("note").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    makerId: uuid("maker_id").references(() => users.id, { onDelete: "set null" }),
    checkerId: uuid("checker_id").references(() => users.id, { onDelete: "set null" }),
    checkerNote: text("checker_note"),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** The held transfer a reject_transfer or block_transfer decides (decision 048). */
    transferId: uuid("transfer_id").references(() => transferRequests.id, { onDelete: "set null" }),
    /** An approved reject or block is reported to OFAC by this New York day (10 business days). */
    reportDueOn: date("report_due_on", { mode: "string" }),
  },
  (t) => [
    uniqueIndex("compliance_case_decisions_one_pending_key").on(t.caseId).where(sql`${t.status} = 'pending'`),
    index("compliance_case_decisions_case_idx").on(t.caseId, t.createdAt),
    check(
      "compliance_case_decisions_decision_check",
      sql`${t.decision} in ('clear', 'restrict', 'freeze', 'file', 'lift', 'reject_transfer', 'block_transfer')`,
    ),
    check(
      "compliance_case_decisions_transfer_only_for_transfers",
      sql`${t.transferId} is null or ${t.decision} in ('reject_transfer', 'block_transfer')`,
    ),
    check("compliance_case_decisions_status_check", sql`${t.status} in ('pending', 'approved', 'rejected')`),
    check(
      "compliance_case_decisions_decided_consistent",
      sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`,
    ),
    check(
      "compliance_case_decisions_two_people",
      sql`${t.checkerId} is null or ${t.checkerId} <> ${t.makerId}`,
    ),
  ],
);

/** The SAR draft's FinCEN fields compliance records on a case (0044, decision 055). */
export const complianceSarDetails = pgTable(
  "compliance_sar_details",
  {
    caseId: uuid("case_id")
      .primaryKey()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    filingType: text("filing_type", { enum: ["initial", "continuing", "correction"] })
      .notNull()
      .default("initial"),
    /** The BSA ID of the report this one continues or corrects (14 digits; zeros when unknown). */
    priorReportId: text("prior_report_id"),
    priorFiledOn: date("prior_filed_on", { mode: "string" }),
    /** False: no suspect identified, so the report is due 60 days after first detection instead of 30. */
    subjectIdentified: boolean("subject_identified").notNull().default(true),
    categories: text("categories").array().notNull().default(sql`'{}'::text[]`),
    otherCategory: text("other_category"),
    idType: text("id_type", { enum: ["drivers_license", "passport", "alien_registration", "other"] }),
    idOtherType: text("id_other_type"),
    /** The ID document's number, sealed under DATA_KEY as the SSN is; the screen shows the last four only. */
    idNumberCiphertext: text("id_number_ciphertext"),
    idNumberLast4: text("id_number_last4"),
    idIssuerState: text("id_issuer_state"),
    idIssuerCountry: text("id_issuer_country"),
    occupation: text("occupation"),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "compliance_sar_details_filing_type_check",
      sql`${t.filingType} in ('initial', 'continuing', 'correction')`,
    ),
    check(
      "compliance_sar_details_prior_check",
      sql`(${t.filingType} = 'initial') = (${t.priorReportId} is null)`,
    ),
    check(
      "compliance_sar_details_id_type_check",
      sql`${t.idType} is null or ${t.idType} in ('drivers_license', 'passport', 'alien_registration', 'other')`,
    ),
    check(
      "compliance_sar_details_id_number_check",
      sql`(${t.idNumberCiphertext} is null) = (${t.idNumberLast4} is null)`,
    ),
  ],
);

/**
 * A blocked or rejected transaction OFAC must be told of within 10 business days (31 CFR 501.603-604; 0044,
 * decision 055): written when the block or reject is approved, with what the report needs kept as it was then.
 */
export const ofacReports = pgTable(
  "ofac_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["blocked", "rejected"] }).notNull(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    decisionId: uuid("decision_id")
      .notNull()
      .references(() => complianceCaseDecisions.id, { onDelete: "cascade" }),
    transferId: uuid("transfer_id").references(() => transferRequests.id, { onDelete: "set null" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    amount: bigint("amount", { mode: "number" }).notNull(),
    ownerName: text("owner_name").notNull(),
    ownerAddress: text("owner_address"),
    counterpartyName: text("counterparty_name").notNull(),
    counterpartyAddress: text("counterparty_address"),
    programs: text("programs").notNull(),
    listEntries: text("list_entries").notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }).notNull(),
    /** The New York day the block or reject applied, from which the 10 business days run. */
    decidedOn: date("decided_on", { mode: "string" }).notNull(),
    dueOn: date("due_on", { mode: "string" }).notNull(),
    filedOn: date("filed_on", { mode: "string" }),
    filedReference: text("filed_reference"),
    filedBy: uuid("filed_by").references(() => users.id, { onDelete: "set null" }),
    filedAt: timestamp("filed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("ofac_reports_decision_key").on(t.decisionId),
    index("ofac_reports_due_idx").on(t.dueOn, t.id),
    index("ofac_reports_blocked_idx").on(t.decidedOn).where(sql`${t.kind} = 'blocked'`),
    check("ofac_reports_kind_check", sql`${t.kind} in ('blocked', 'rejected')`),
    check("ofac_reports_amount_check", sql`${t.amount} > 0`),
    check(
      "ofac_reports_filed_consistent",
      sql`(${t.filedAt} is null) = (${t.filedReference} is null) and (${t.filedAt} is null) = (${t.filedOn} is null)`,
    ),
  ],
);

/** A customer's USDC deposit address: derived from DEPOSIT_XPUB at `derivationIndex`, never reused (0024). */
export const depositAddresses = pgTable("deposit_addresses", {
  derivationIndex: integer("derivation_index")
    .primaryKey()
    .generatedByDefaultAsIdentity({ startWith: 0, minValue: 0 }),
  userId: uuid("user_id")
    .unique()
    .references(() => users.id, { onDelete: "set null" }),
  /** Lowercase 0x address; shown to customers in its EIP-55 checksummed form. */
  address: text("address").notNull().unique(),
  createdAt: createdAt(),
  /** xpub: derived from DEPOSIT_XPUB (no key here: not sweepable); create2: a forwarder's address (0050, decision 060). */
  kind: text("kind", { enum: ["xpub", "create2"] })
    .notNull()
    .default("xpub"),
  /** create2: the 32-byte salt (0x hex) the factory's sweep(salt) takes, and the factory (lowercase). */
  salt: text("salt"),
  factory: text("factory"),
});

/** One token Transfer log to a deposit address, credited at most once per (chain, hash, log index) (0024). */
export const chainDeposits = pgTable(
  "chain_deposits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chainId: integer("chain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    /** The log's place among its transaction's logs: with the hash, the deposit's identity (0046, decision 056). Null only on rows older than 0046 until the watcher fills it. */
    txLogIndex: integer("tx_log_index"),
    /** Where it was last seen: the block's log index, block number and hash move when a reorg mines it elsewhere. */
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The token's 6-decimal units, as text (numeric(78,0) holds any uint256). */
    units: numeric("units", { precision: 78, scale: 0 }).notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    /** Units below a cent (units mod 10^4), never credited: decision 028. */
    dustUnits: integer("dust_units").notNull(),
    /** held: booked with an open hold while compliance reviews its sender (0033, decision 039). */
    /** reversed: booked, then a reorg deeper than the confirmations took its log away (0046, decision 056). */
    status: text("status", { enum: ["pending", "held", "credited", "below_cent", "reversed"] }).notNull(),
    transactionId: uuid("transaction_id"),
    entryId: uuid("entry_id").references(() => journalEntries.id),
    holdId: uuid("hold_id").references(() => holds.id),
    caseId: uuid("case_id").references(() => complianceCases.id),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
    creditedAt: timestamp("credited_at", { withTimezone: true }),
    reversalEntryId: uuid("reversal_entry_id").references(() => journalEntries.id),
    reversedAt: timestamp("reversed_at", { withTimezone: true }),
    /** The return movement that sent it back to its sender (0050, decision 060). */
    returnedBy: uuid("returned_by"),
  },
  (t) => [
    unique("chain_deposits_log_once").on(t.chainId, t.txHash, t.txLogIndex),
    index("chain_deposits_user_idx").on(t.userId, t.seenAt),
  ],
);

/** The first block the chain watcher has not read yet, per chain (0024). */
export const chainWatchState = pgTable("chain_watch_state", {
  chainId: integer("chain_id").primaryKey(),
  nextBlock: bigint("next_block", { mode: "number" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The customer's own daily limit and send block (0029, decision 035); the rules are in functions/self-limits.sql. */
export const customerLimits = pgTable("customer_limits", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  dailyLimitCents: bigint("daily_limit_cents", { mode: "number" }),
  raiseToCents: bigint("raise_to_cents", { mode: "number" }),
  raiseAt: timestamp("raise_at", { withTimezone: true }),
  blockOn: boolean("block_on").notNull().default(false),
  blockCooldown: text("block_cooldown"),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** "This wasn't me" links for a block on crypto sends (0037, decision 047): single use, a few hours. */
export const sendBlockUndoLinks = pgTable(
  "send_block_undo_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** The cooldown that was running when the block was switched on: the undo puts it back. */
    previousBlockedUntil: timestamp("previous_blocked_until", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("send_block_undo_links_user_idx").on(t.userId)],
);

/** Staff notes on a customer's own limits: the only thing staff may do about them (0029). */
export const customerLimitNotes = pgTable(
  "customer_limit_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    staffId: uuid("staff_id").references(() => users.id, { onDelete: "set null" }),
    note: text("note").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("customer_limit_notes_user_idx").on(t.userId, t.createdAt)],
);

/** A payment from one customer's wallet to another's by $tag: one journal entry, settled at once (0029). */
export const tagPayments = pgTable(
  "tag_payments",
  {
    id: uuid("id").primaryKey(),
    payerId: uuid("payer_id").references(() => users.id, { onDelete: "set null" }),
    payeeId: uuid("payee_id").references(() => users.id, { onDelete: "set null" }),
    payerTag: text("payer_tag").notNull(),
    payeeTag: text("payee_tag").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    note: text("note"),
    limitDay: text("limit_day").notNull(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => journalEntries.id),
    payerTransactionId: uuid("payer_transaction_id").notNull(),
    payeeTransactionId: uuid("payee_transaction_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("tag_payments_payer_day_idx").on(t.payerId, t.limitDay),
    index("tag_payments_payee_idx").on(t.payeeId, t.createdAt),
    check("tag_payments_amount_positive", sql`${t.amount} > 0`),
    check("tag_payments_two_parties", sql`${t.payerId} <> ${t.payeeId}`),
  ],
);

/** An approved transfer's payout on chain: queued, signed (stored before broadcast), sent, then settled (0025). */
export const payouts = pgTable(
  "payouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    transferRequestId: uuid("transfer_request_id")
      .notNull()
      .references(() => transferRequests.id),
    chainId: integer("chain_id").notNull(),
    /** The hot wallet (lowercase) that signed it; set with the nonce. */
    fromAddress: text("from_address"),
    /** As the customer entered it (the checks read its case for EIP-55). */
    toAddress: text("to_address").notNull(),
    /** net cents × 10^4, the token's 6-decimal units, as text. */
    units: numeric("units", { precision: 78, scale: 0 }).notNull(),
    status: text("status", { enum: ["queued", "held", "signed", "sent", "completed", "failed"] })
      .notNull()
      .default("queued"),
    nonce: bigint("nonce", { mode: "number" }),
    /** Why a queued payout waits (hot wallet short of USDC or gas); null when it does not. */
    waitingReason: text("waiting_reason"),
    /** A check refused it after signing: a cancel at its nonce is on its way, and the payout fails with this. */
    voidReason: text("void_reason"),
    /** The plain words the customer reads when it failed. */
    failureReason: text("failure_reason"),
    minedHash: text("mined_hash"),
    minedBlock: bigint("mined_block", { mode: "number" }),
    minedBlockHash: text("mined_block_hash"),
    /** How deep the mined transaction is, as the worker last read it, capped at CHAIN_CONFIRMATIONS (0036). */
    confirmations: integer("confirmations").notNull().default(0),
    queuedBy: uuid("queued_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    signedAt: timestamp("signed_at", { withTimezone: true }),
    lastBroadcastAt: timestamp("last_broadcast_at", { withTimezone: true }),
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /** Settled outside Pillar (decision 040): the on-chain transaction staff named, if any (lowercase). */
    outsideTxHash: text("outside_tx_hash"),
    /** The approval that recorded it as settled outside Pillar; the worker never touches it again. */
    settledOutsideBy: uuid("settled_outside_by").references(() => approvals.id),
  },
  (t) => [
    unique("payouts_one_per_transfer").on(t.transferRequestId),
    unique("payouts_nonce_once").on(t.chainId, t.fromAddress, t.nonce),
  ],
);

/** Every signed transaction of a payout, stored before it is broadcast: the first, replacements, a cancel (0025). */
export const payoutAttempts = pgTable(
  "payout_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    payoutId: uuid("payout_id")
      .notNull()
      .references(() => payouts.id),
    kind: text("kind", { enum: ["transfer", "cancel"] }).notNull(),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    txHash: text("tx_hash").notNull().unique(),
    rawTx: text("raw_tx").notNull(),
    maxFeePerGas: numeric("max_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    maxPriorityFeePerGas: numeric("max_priority_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    createdAt: createdAt(),
    firstBroadcastAt: timestamp("first_broadcast_at", { withTimezone: true }),
  },
  (t) => [index("payout_attempts_payout_idx").on(t.payoutId, t.createdAt)],
);

/** The hot wallet's next nonce per chain; read and bumped under this row's lock (0025). */
export const hotWalletNonces = pgTable(
  "hot_wallet_nonces",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    nextNonce: bigint("next_nonce", { mode: "number" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "hot_wallet_nonces_pk", columns: [t.chainId, t.address] })],
);

/** What the payout worker last saw of the hot wallet: balances, nonces, a nonce alert (0048, decision 058). */
export const hotWalletStatus = pgTable(
  "hot_wallet_status",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    usdcUnits: numeric("usdc_units", { precision: 78, scale: 0 }).notNull(),
    gasWei: numeric("gas_wei", { precision: 78, scale: 0 }).notNull(),
    baseFeeWei: numeric("base_fee_wei", { precision: 78, scale: 0 }).notNull(),
    marketMaxFeeWei: numeric("market_max_fee_wei", { precision: 78, scale: 0 }).notNull(),
    latestNonce: bigint("latest_nonce", { mode: "number" }).notNull(),
    pendingNonce: bigint("pending_nonce", { mode: "number" }).notNull(),
    /** hot_wallet_nonces.next_nonce when it was read; null before Pillar signed anything. */
    handedOutNonce: bigint("handed_out_nonce", { mode: "number" }),
    nonceAlert: text("nonce_alert", { enum: ["gap", "used_outside"] }),
    /** The nonce the alert is about: the first one missing, or the one used outside. */
    nonceAlertNonce: bigint("nonce_alert_nonce", { mode: "number" }),
    observedAt: timestamp("observed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "hot_wallet_status_pk", columns: [t.chainId, t.address] })],
);

/**
 * A transaction the hot wallet signs that is not a payout (0050, decision 060): a sweep of a CREATE2 deposit
 * address into the hot wallet, the surplus above HOT_WALLET_CEILING to cold, or a return of an uncredited deposit
 * to its sender. Signed and stored before broadcast, nonce from hot_wallet_nonces under its row lock.
 */
export const treasuryMovements = pgTable(
  "treasury_movements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chainId: integer("chain_id").notNull(),
    kind: text("kind", { enum: ["sweep", "to_cold", "return"] }).notNull(),
    status: text("status", { enum: ["queued", "signed", "sent", "completed", "failed"] })
      .notNull()
      .default("queued"),
    /** Lowercase: the deposit address (sweep) or the hot wallet. */
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    salt: text("salt"),
    depositId: uuid("deposit_id").references(() => chainDeposits.id),
    approvalId: uuid("approval_id").references(() => approvals.id),
    /** Units planned (a sweep moves the whole balance at mining: minedUnits is what moved). */
    units: numeric("units", { precision: 78, scale: 0 }).notNull(),
    minedUnits: numeric("mined_units", { precision: 78, scale: 0 }),
    signerAddress: text("signer_address"),
    nonce: bigint("nonce", { mode: "number" }),
    waitingReason: text("waiting_reason"),
    failureReason: text("failure_reason"),
    minedHash: text("mined_hash"),
    minedBlock: bigint("mined_block", { mode: "number" }),
    minedBlockHash: text("mined_block_hash"),
    confirmations: integer("confirmations").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    signedAt: timestamp("signed_at", { withTimezone: true }),
    lastBroadcastAt: timestamp("last_broadcast_at", { withTimezone: true }),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [unique("treasury_movements_nonce_once").on(t.chainId, t.signerAddress, t.nonce)],
);

/** Every signed transaction of a treasury movement, stored before it is broadcast (0050). */
export const treasuryMovementAttempts = pgTable(
  "treasury_movement_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    movementId: uuid("movement_id")
      .notNull()
      .references(() => treasuryMovements.id),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    txHash: text("tx_hash").notNull().unique(),
    rawTx: text("raw_tx").notNull(),
    maxFeePerGas: numeric("max_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    maxPriorityFeePerGas: numeric("max_priority_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    createdAt: createdAt(),
    firstBroadcastAt: timestamp("first_broadcast_at", { withTimezone: true }),
  },
  (t) => [index("treasury_movement_attempts_movement_idx").on(t.movementId, t.createdAt)],
);

/** A customer's scheduled or recurring transfer to a saved recipient (0030, decision 036). */
export const transferSchedules = pgTable(
  "transfer_schedules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    recipientId: uuid("recipient_id").references(() => savedRecipients.id, { onDelete: "set null" }),
    recipientName: text("recipient_name").notNull(),
    address: text("address").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    purpose: text("purpose").notNull(),
    cadence: text("cadence", { enum: ["once", "weekly", "every_two_weeks", "monthly"] }).notNull(),
    startOn: date("start_on", { mode: "string" }).notNull(),
    endOn: date("end_on", { mode: "string" }),
    status: text("status", { enum: ["active", "paused", "completed", "cancelled"] })
      .notNull()
      .default("active"),
    nextRunIndex: integer("next_run_index").notNull().default(0),
    nextRunOn: date("next_run_on", { mode: "string" }),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    requestKey: text("request_key").notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("transfer_schedules_user_idx").on(t.userId, t.createdAt),
    unique("transfer_schedules_request_once").on(t.userId, t.requestKey),
  ],
);

/** One row per run date of a schedule, made or skipped; unique per (schedule, date) (0030). */
export const scheduleRuns = pgTable(
  "schedule_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    scheduleId: uuid("schedule_id")
      .notNull()
      .references(() => transferSchedules.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    runOn: date("run_on", { mode: "string" }).notNull(),
    outcome: text("outcome", { enum: ["made", "skipped"] }).notNull(),
    reason: text("reason"),
    transferId: uuid("transfer_id").references(() => transferRequests.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [unique("schedule_runs_once").on(t.scheduleId, t.runOn)],
);

/**
 * The back office's headline figures (0051, decision 061): one folded row, plus deltas the counted tables'
 * statement triggers append in the writing transaction; a read sums both, so it is exact and O(1).
 */
export const adminStats = pgTable(
  "admin_stats",
  {
    id: integer("id").primaryKey().default(1),
    customers: bigint("customers", { mode: "number" }).notNull(),
    activeAccounts: bigint("active_accounts", { mode: "number" }).notNull(),
    walletBalance: bigint("wallet_balance", { mode: "number" }).notNull(),
    transactions: bigint("transactions", { mode: "number" }).notNull(),
    foldedAt: timestamp("folded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("admin_stats_id_check", sql`${t.id} = 1`)],
);

export const adminStatsDeltas = pgTable("admin_stats_deltas", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  customers: bigint("customers", { mode: "number" }).notNull().default(0),
  activeAccounts: bigint("active_accounts", { mode: "number" }).notNull().default(0),
  walletBalance: bigint("wallet_balance", { mode: "number" }).notNull().default(0),
  transactions: bigint("transactions", { mode: "number" }).notNull().default(0),
});

// ── Savings (migration 0056, decision 068) ───────────────────────────────────────────────────────

/** The APY in basis points from a New York day on; proposed by one finance member, approved by another. */
export const savingsRates = pgTable(
  "savings_rates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    apyBps: integer("apy_bps").notNull(),
    effectiveOn: date("effective_on", { mode: "string" }).notNull(),
    status: text("status", { enum: ["proposed", "approved", "rejected"] })
      .notNull()
      .default("proposed"),
    proposedBy: uuid("proposed_by").references(() => users.id, { onDelete: "set null" }),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** Migration 0059 (decision 071): the approval it waits for, the rate it replaces, and the customers' notice. */
    approvalId: uuid("approval_id").references(() => approvals.id),
    previousBps: integer("previous_bps"),
    noticeCursor: uuid("notice_cursor"),
    noticeDoneAt: timestamp("notice_done_at", { withTimezone: true }),
  },
  (t) => [
    check("savings_rates_apy_check", sql`${t.apyBps} >= 0 AND ${t.apyBps} <= 2000`),
    check("savings_rates_status_check", sql`${t.status} in ('proposed', 'approved', 'rejected')`),
    uniqueIndex("savings_rates_effective_idx").on(t.effectiveOn).where(sql`${t.status} = 'approved'`),
  ],
);

/** A customer's savings account: its ledger account, and how far its interest has accrued. */
export const savingsAccounts = pgTable(
  "savings_accounts",
  {
    accountId: uuid("account_id")
      .primaryKey()
      .references(() => ledgerAccounts.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    /** The New York day it opened: its first day of interest. */
    openedOn: date("opened_on", { mode: "string" }).notNull(),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** The last New York day whose closing balance has accrued; null: none yet. */
    accruedThrough: date("accrued_through", { mode: "string" }),
    /** That day's closing balance, cents. */
    closingBalance: bigint("closing_balance", { mode: "number" }).notNull().default(0),
    /** Accrued to a month's last day, and that month's credit not yet made: the next day waits for it. */
    awaitingCredit: boolean("awaiting_credit").notNull().default(false),
  },
  (t) => [
    uniqueIndex("savings_accounts_open_user_idx").on(t.userId).where(sql`${t.closedAt} IS NULL`),
    index("savings_accounts_user_idx").on(t.userId),
    index("savings_accounts_next_day_idx")
      .on(sql`(coalesce(${t.accruedThrough} + 1, ${t.openedOn}))`, t.accountId)
      .where(sql`${t.closedAt} IS NULL`),
  ],
);

/** One account's interest for one month, accrued in millionths of a dollar until the month's credit. */
export const savingsInterest = pgTable(
  "savings_interest",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => savingsAccounts.accountId),
    /** The month's first day. */
    month: date("month", { mode: "string" }).notNull(),
    days: integer("days").notNull().default(0),
    /** Σ of the accrued days' closing balances (cents × days): the average daily balance's numerator. */
    balanceDays: bigint("balance_days", { mode: "number" }).notNull().default(0),
    accruedMicros: bigint("accrued_micros", { mode: "number" }).notNull().default(0),
    through: date("through", { mode: "string" }).notNull(),
    carryInMicros: bigint("carry_in_micros", { mode: "number" }).notNull().default(0),
    creditedCents: bigint("credited_cents", { mode: "number" }),
    carryOutMicros: bigint("carry_out_micros", { mode: "number" }),
    entryId: uuid("entry_id").references(() => journalEntries.id),
    creditedAt: timestamp("credited_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: "savings_interest_pkey", columns: [t.accountId, t.month] }),
    index("savings_interest_uncredited_idx").on(t.month, t.accountId).where(sql`${t.creditedCents} IS NULL`),
  ],
);

/** A savings goal: a name, a target and an optional date; moves may name it. */
export const savingsGoals = pgTable(
  "savings_goals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    targetCents: bigint("target_cents", { mode: "number" }).notNull(),
    targetDate: date("target_date", { mode: "string" }),
    createdAt: createdAt(),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
  },
  (t) => [index("savings_goals_user_idx").on(t.userId, t.createdAt)],
);

/** Money moved between checking and savings (or out of savings when it closed): one journal entry each. */
export const savingsMoves = pgTable(
  "savings_moves",
  {
    id: uuid("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    accountId: uuid("account_id")
      .notNull()
      .references(() => savingsAccounts.accountId),
    direction: text("direction", { enum: ["to_savings", "to_checking", "closing"] }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    goalId: uuid("goal_id").references(() => savingsGoals.id),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => journalEntries.id),
    transactionId: uuid("transaction_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("savings_moves_account_created_idx").on(t.accountId, t.createdAt),
    index("savings_moves_goal_idx").on(t.goalId).where(sql`${t.goalId} IS NOT NULL`),
  ],
);

/** Finance's interest by New York day: one row per accrual or credit batch and day, insert-only (decision 071). */
export const savingsInterestDays = pgTable(
  "savings_interest_days",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    day: date("day", { mode: "string" }).notNull(),
    accruedMicros: bigint("accrued_micros", { mode: "number" }).notNull().default(0),
    accountDays: integer("account_days").notNull().default(0),
    paidCents: bigint("paid_cents", { mode: "number" }).notNull().default(0),
    accountsPaid: integer("accounts_paid").notNull().default(0),
  },
  (t) => [index("savings_interest_days_day_idx").on(t.day)],
);
