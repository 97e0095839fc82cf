import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { approvals } from "@/server/db/schema/approvals";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";
import { journalEntries, ledgerAccounts } from "@/server/db/schema/ledger";

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
