import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";

/**
 * One file a user asked to upload: the row exists from the moment the upload URL is handed out, so only
 * its owner can complete it, attach it or read it back. `content_type` is the sniffed type, never the declared one.
 */
export const uploads = pgTable(
  "uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    objectKey: text("object_key").notNull().unique(),
    /** `receiving`: bytes are streaming in through the app right now (one PUT per link at a time). */
    status: text("status", { enum: ["pending", "receiving", "complete", "rejected"] })
      .notNull()
      .default("pending"),
    contentType: text("content_type"),
    sizeBytes: integer("size_bytes"),
    /** S3 ETag of the bytes that were checked: a later overwrite through a still-valid URL is never served. */
    storageEtag: text("storage_etag"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("uploads_user_id_idx").on(t.userId),
    // Today's bytes per user (the daily upload cap) and the sweep of old unattached uploads.
    index("uploads_user_completed_idx").on(t.userId, t.completedAt),
    index("uploads_created_at_idx").on(t.createdAt),
    check("uploads_status_check", sql`${t.status} in ('pending', 'receiving', 'complete', 'rejected')`),
    check("uploads_size_check", sql`${t.sizeBytes} is null or ${t.sizeBytes} between 1 and 10485760`),
  ],
);
