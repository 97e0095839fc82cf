import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "@/server/db/schema/columns";
import { users } from "@/server/db/schema/identity";

/**
 * Maker-checker: a staff change above the threshold waits here until a different staff member with the right
 * role approves it (then it runs, once, in the approval's transaction) or rejects it (nothing moves).
 */
export const approvals = pgTable(
  "approvals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", {
      enum: [
        "incoming_payment",
        "credit",
        "balance_adjustment",
        "kyc_reset",
        "unfreeze",
        "transfer_release",
        "payout_settled_outside",
        "send_block_lift",
        "deposit_return",
        "savings_rate",
      ],
    }).notNull(),
    /**
     * The customer it concerns; null once that customer is deleted (the approval can then only be rejected), and
     * for a change that concerns no one customer (a savings rate).
     */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The row it acts on when one exists already (payment, transaction, KYC application, user): one pending per target. */
    targetKey: text("target_key"),
    /** What will be done: the original request, replayed through the same service function on approval. */
    payload: jsonb("payload").notNull(),
    /** Amount in cents for money kinds (the credit, or the adjustment's difference). */
    amount: bigint("amount", { mode: "number" }),
    before: jsonb("before").notNull(),
    after: jsonb("after").notNull(),
    reason: text("reason").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    makerId: uuid("maker_id").notNull(),
    makerRole: text("maker_role").notNull(),
    checkerId: uuid("checker_id"),
    checkerRole: text("checker_role"),
    decisionReason: text("decision_reason"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** Credits only: the maker's and the customer's 24-hour credit totals, this one included, when it was asked for. */
    makerWindowTotal: bigint("maker_window_total", { mode: "number" }),
    customerWindowTotal: bigint("customer_window_total", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    // The Approvals tab: pending first, then newest first, paged by keyset.
    index("approvals_queue_idx").on(sql`(${t.status} = 'pending')`, t.createdAt, t.id),
    index("approvals_user_idx").on(t.userId),
    uniqueIndex("approvals_pending_target_key")
      .on(t.kind, t.targetKey)
      .where(sql`${t.status} = 'pending' and ${t.targetKey} is not null`),
    check("approvals_reason_present", sql`length(trim(${t.reason})) > 0`),
    check(
      "approvals_decided_consistent",
      sql`(${t.status} = 'pending') = (${t.decidedAt} is null and ${t.checkerId} is null)`,
    ),
    check("approvals_checker_not_maker", sql`${t.checkerId} is null or ${t.checkerId} <> ${t.makerId}`),
  ],
);
