import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { MONEY_EVENT_KINDS } from "@/contract/monitoring";
import { createdAt } from "@/server/db/schema/columns";
import { complianceCases } from "@/server/db/schema/compliance";
import { users } from "@/server/db/schema/identity";

/** A transaction-monitoring alert (0026, decision 031): the rule, its score and the evidence it saw, on a case. */
export const monitoringAlerts = pgTable(
  "monitoring_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => complianceCases.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    rule: text("rule").notNull(),
    score: doublePrecision("score").notNull(),
    /** Holds the customer's money out while the case is open, like a sanctions hit. */
    blocking: boolean("blocking").notNull(),
    eventKind: text("event_kind", { enum: MONEY_EVENT_KINDS }).notNull(),
    /** The transaction (money in) or transfer request (money out) the rule judged. */
    eventId: uuid("event_id").notNull(),
    transferId: uuid("transfer_id"),
    evidence: jsonb("evidence").$type<Record<string, unknown>>().notNull(),
    /** The same rule on the same event never makes a second alert. */
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("monitoring_alerts_dedupe_key").on(t.dedupeKey),
    index("monitoring_alerts_case_idx").on(t.caseId, t.createdAt),
    index("monitoring_alerts_user_idx").on(t.userId, t.createdAt),
    index("monitoring_alerts_queue_idx").on(t.createdAt, t.id),
    check(
      "monitoring_alerts_event_kind_check",
      sql`${t.eventKind} in ('credit', 'deposit', 'transfer', 'tag_out', 'tag_in')`,
    ),
    check("monitoring_alerts_score_check", sql`${t.score} >= 0 and ${t.score} <= 1`),
  ],
);
