-- "This wasn't me" for a block on crypto sends (issue 46 item 28, decision 047). Turning "Block crypto sends" on
-- e-mails the customer a single-use link that, for a few hours, undoes it: only its SHA-256 is kept, with the
-- cooldown that was running before (restored by the undo, so the link removes the block it announced and nothing
-- older). The undo and the compliance override lift a block through lift_send_block
-- (server/db/functions/self-limits.sql), the one write the cooldown trigger lets through.
CREATE TABLE "send_block_undo_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"token_hash" text NOT NULL,
	"previous_blocked_until" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "send_block_undo_links_token_hash_unique" UNIQUE ("token_hash")
);
--> statement-breakpoint
CREATE INDEX "send_block_undo_links_user_idx" ON "send_block_undo_links" ("user_id");
