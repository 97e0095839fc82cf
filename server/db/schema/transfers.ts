import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";

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
