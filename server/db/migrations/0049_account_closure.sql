-- Issue 48 §6 (decision 059): an account with money history is closed, never deleted (BSA: five years of records).
-- The login stays for statements; closed_at shuts money in and out (can_send_money, money_out_gate, the receiving
-- check); identity_erased_at marks the retention job's erasure of the identity data, the ledger kept.
ALTER TABLE "users" ADD COLUMN "closed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "closed_by" uuid;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "closure_reason" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "identity_erased_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_closure_consistent" CHECK (("closed_at" IS NULL) = ("closed_by" IS NULL) AND ("identity_erased_at" IS NULL OR "closed_at" IS NOT NULL));
--> statement-breakpoint
-- The retention job's queue: closed accounts whose identity is still kept, oldest closure first.
CREATE INDEX "users_closed_unerased_idx" ON "users" ("closed_at", "id") WHERE "closed_at" IS NOT NULL AND "identity_erased_at" IS NULL;
