ALTER TABLE "uploads" DROP CONSTRAINT "uploads_status_check";--> statement-breakpoint
CREATE INDEX "uploads_user_completed_idx" ON "uploads" USING btree ("user_id","completed_at");--> statement-breakpoint
CREATE INDEX "uploads_created_at_idx" ON "uploads" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_status_check" CHECK ("uploads"."status" in ('pending', 'receiving', 'complete', 'rejected'));