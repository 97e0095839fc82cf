import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";

/**
 * A customer's address book for USDC transfers: a name for an address they send to. One address once per
 * customer, whatever its case (the unique index); at most RECIPIENT_LIMIT rows each, checked under a lock.
 */
export const savedRecipients = pgTable(
  "saved_recipients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    address: text("address").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("saved_recipients_user_address_key").on(t.userId, sql`lower(${t.address})`),
    // Back-office search by an address (0051).
    index("saved_recipients_address_idx").on(sql`lower(${t.address})`),
    check("saved_recipients_name_length", sql`char_length(${t.name}) between 1 and 60`),
    check("saved_recipients_address_length", sql`char_length(${t.address}) between 32 and 100`),
  ],
);
