import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { StaffRole } from "@/contract/staff";
import { createdAt } from "@/server/db/schema/columns";

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
