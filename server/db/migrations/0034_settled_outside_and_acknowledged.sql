-- Issue 29 (decision 040). A payout settled outside Pillar (paid from another wallet, or by a transaction Pillar
-- did not sign) is recorded through maker-checker: the payout keeps the approval that recorded it and the
-- on-chain transaction named, if any (one payout per such transaction). A reconciliation difference can be
-- acknowledged with a reason; an acknowledgment names the difference by its fingerprint, so the same difference
-- found by a later run is acknowledged too, and a new one is not.
ALTER TABLE "payouts" ADD COLUMN "outside_tx_hash" text;
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "settled_outside_by" uuid REFERENCES "approvals"("id");
--> statement-breakpoint
-- A payout settled outside Pillar before it was signed is completed without a nonce.
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_signed_has_nonce";
--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_signed_has_nonce"
	CHECK ("status" in ('queued', 'held', 'failed') or "nonce" is not null or "settled_outside_by" is not null);
--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_outside_is_completed"
	CHECK ("settled_outside_by" is null or "status" = 'completed');
--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_outside_hash_recorded"
	CHECK ("outside_tx_hash" is null or "settled_outside_by" is not null);
--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_outside_tx_once" ON "payouts" ("chain_id", "outside_tx_hash")
	WHERE "outside_tx_hash" is not null;
--> statement-breakpoint
-- What makes two runs' items the same difference: its area, kind, transaction and reference, and its amounts;
-- for the hot wallet's balance, the gap between chain and ledger (the balance itself moves with every payout).
ALTER TABLE "reconciliation_items" ADD COLUMN "fingerprint" text GENERATED ALWAYS AS (
	"area" || '|' || "kind" || '|' || coalesce("tx_hash", '') || '|' || coalesce("reference", '') || '|' ||
	CASE WHEN "area" = 'hot_wallet' THEN coalesce(("chain_units" - "ledger_units")::text, '')
	     ELSE coalesce("chain_units"::text, '') || '|' || coalesce("ledger_units"::text, '') END
) STORED;
--> statement-breakpoint
CREATE INDEX "reconciliation_items_fingerprint_idx" ON "reconciliation_items" ("fingerprint");
--> statement-breakpoint
CREATE TABLE "reconciliation_acknowledgments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"area" text NOT NULL,
	"kind" text NOT NULL,
	"item_id" bigint REFERENCES "reconciliation_items"("id") ON DELETE SET NULL,
	"reason" text NOT NULL,
	"acknowledged_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"acknowledged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliation_acknowledgments_once" UNIQUE ("chain_id", "fingerprint"),
	CONSTRAINT "reconciliation_acknowledgments_reason" CHECK (length(trim("reason")) > 0)
);
