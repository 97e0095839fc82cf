import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "@/server/db/schema/identity";

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
