import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";
import { journalEntries } from "@/server/db/schema/ledger";

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
