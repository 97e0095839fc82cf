import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";

/** Browsers that have signed in to an account: new-device alerts and login throttling exemptions. */
export const knownDevices = pgTable(
  "known_devices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the long-lived device cookie. */
    tokenHash: text("token_hash").notNull(),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("known_devices_user_token_key").on(t.userId, t.tokenHash),
    // Sign-in moves the device cookie by its hash alone (0055).
    index("known_devices_token_hash_idx").on(t.tokenHash),
  ],
);

/** Single-use "This wasn't me" links (7 days) mailed with security events; using one freezes the account. */
export const freezeLinks = pgTable(
  "freeze_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** What the mail was about: new_device, password_changed, second_factor, transfer. */
    reason: text("reason").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("freeze_links_user_idx").on(t.userId)],
);

/** "This wasn't me" links for a block on crypto sends (0037, decision 047): single use, a few hours. */
export const sendBlockUndoLinks = pgTable(
  "send_block_undo_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    /** The cooldown that was running when the block was switched on: the undo puts it back. */
    previousBlockedUntil: timestamp("previous_blocked_until", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("send_block_undo_links_user_idx").on(t.userId)],
);
