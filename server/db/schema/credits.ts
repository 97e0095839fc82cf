import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";

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
