ALTER TABLE "audit_log" ADD COLUMN "subject_user_id" uuid;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_role" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "reason" text;--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("subject_user_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "audit_log_created_at_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
-- Existing rows learn their customer from their target, as writeAudit derives it for new rows.
UPDATE "audit_log" SET "subject_user_id" = "target_id"::uuid
  WHERE "target_type" = 'user' AND "target_id" ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';--> statement-breakpoint
UPDATE "audit_log" a SET "subject_user_id" = k."user_id" FROM "kyc_applications" k
  WHERE a."target_type" = 'kyc_application' AND k."id"::text = a."target_id";--> statement-breakpoint
UPDATE "audit_log" a SET "subject_user_id" = r."user_id" FROM "account_requests" r
  WHERE a."target_type" = 'account_request' AND r."id"::text = a."target_id";--> statement-breakpoint
UPDATE "audit_log" a SET "subject_user_id" = t."user_id" FROM "transactions" t
  WHERE a."target_type" = 'transaction' AND t."id"::text = a."target_id";--> statement-breakpoint
UPDATE "audit_log" a SET "subject_user_id" = t."user_id" FROM "transfer_requests" t
  WHERE a."target_type" = 'transfer_request' AND t."id"::text = a."target_id";--> statement-breakpoint
UPDATE "audit_log" a SET "subject_user_id" = p."user_id" FROM "incoming_payments" p
  WHERE a."target_type" = 'incoming_payment' AND p."id"::text = a."target_id";
