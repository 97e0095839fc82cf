import { sql } from "drizzle-orm";
import { bigint, check, integer, pgTable, timestamp } from "drizzle-orm/pg-core";

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
