CREATE TABLE "approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"target_key" text,
	"payload" jsonb NOT NULL,
	"amount" bigint,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"maker_id" uuid NOT NULL,
	"maker_role" text NOT NULL,
	"checker_id" uuid,
	"checker_role" text,
	"decision_reason" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approvals_reason_present" CHECK (length(trim("approvals"."reason")) > 0),
	CONSTRAINT "approvals_decided_consistent" CHECK (("approvals"."status" = 'pending') = ("approvals"."decided_at" is null and "approvals"."checker_id" is null)),
	CONSTRAINT "approvals_checker_not_maker" CHECK ("approvals"."checker_id" is null or "approvals"."checker_id" <> "approvals"."maker_id")
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approvals_queue_idx" ON "approvals" USING btree (("status" = 'pending'),"created_at","id");--> statement-breakpoint
CREATE INDEX "approvals_user_idx" ON "approvals" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "approvals_pending_target_key" ON "approvals" USING btree ("kind","target_key") WHERE "approvals"."status" = 'pending' and "approvals"."target_key" is not null;