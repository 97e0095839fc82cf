ALTER TABLE "transfer_requests" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
-- Rows moved before these columns existed: their last change is the best time we have.
UPDATE "transfer_requests" SET "settled_at" = "updated_at" WHERE "status" IN ('completed', 'failed', 'cancelled');--> statement-breakpoint
UPDATE "transfer_requests" SET "reviewed_at" = "updated_at" WHERE "status" = 'processing';
