import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";
import { savingsAccounts } from "@/server/db/schema/savings";

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
