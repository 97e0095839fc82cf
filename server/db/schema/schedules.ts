import { bigint, date, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";
import { savedRecipients } from "@/server/db/schema/recipients";
import { transferRequests } from "@/server/db/schema/transfers";

/** A customer's scheduled or recurring transfer to a saved recipient (0030, decision 036). */
export const transferSchedules = pgTable(
  "transfer_schedules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    recipientId: uuid("recipient_id").references(() => savedRecipients.id, { onDelete: "set null" }),
    recipientName: text("recipient_name").notNull(),
    address: text("address").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    purpose: text("purpose").notNull(),
    cadence: text("cadence", { enum: ["once", "weekly", "every_two_weeks", "monthly"] }).notNull(),
    startOn: date("start_on", { mode: "string" }).notNull(),
    endOn: date("end_on", { mode: "string" }),
    status: text("status", { enum: ["active", "paused", "completed", "cancelled"] })
      .notNull()
      .default("active"),
    nextRunIndex: integer("next_run_index").notNull().default(0),
    nextRunOn: date("next_run_on", { mode: "string" }),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    requestKey: text("request_key").notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("transfer_schedules_user_idx").on(t.userId, t.createdAt),
    unique("transfer_schedules_request_once").on(t.userId, t.requestKey),
  ],
);

/** One row per run date of a schedule, made or skipped; unique per (schedule, date) (0030). */
export const scheduleRuns = pgTable(
  "schedule_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    scheduleId: uuid("schedule_id")
      .notNull()
      .references(() => transferSchedules.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    runOn: date("run_on", { mode: "string" }).notNull(),
    outcome: text("outcome", { enum: ["made", "skipped"] }).notNull(),
    reason: text("reason"),
    transferId: uuid("transfer_id").references(() => transferRequests.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [unique("schedule_runs_once").on(t.scheduleId, t.runOn)],
);
