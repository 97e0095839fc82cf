import { sql } from "drizzle-orm";
import { check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";

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
