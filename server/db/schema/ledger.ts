import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";

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
