-- USDC payouts on a real EVM chain (issue 29, decision 030): the queue of approved transfers the payout worker
-- signs and follows, every signed transaction it stored before broadcasting (a replacement or a cancel at the
-- same nonce is another row: whichever is mined counts), and the hot wallet's next nonce, handed out under this
-- row's lock.
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_request_id" uuid NOT NULL REFERENCES "transfer_requests"("id"),
	"chain_id" integer NOT NULL,
	"from_address" text,
	"to_address" text NOT NULL,
	"units" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"nonce" bigint,
	"waiting_reason" text,
	"void_reason" text,
	"failure_reason" text,
	"mined_hash" text,
	"mined_block" bigint,
	"mined_block_hash" text,
	"queued_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_at" timestamp with time zone,
	"last_broadcast_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payouts_one_per_transfer" UNIQUE ("transfer_request_id"),
	CONSTRAINT "payouts_nonce_once" UNIQUE ("chain_id", "from_address", "nonce"),
	CONSTRAINT "payouts_status" CHECK ("status" in ('queued', 'held', 'signed', 'sent', 'completed', 'failed')),
	CONSTRAINT "payouts_units_positive" CHECK ("units" > 0),
	CONSTRAINT "payouts_signed_has_nonce" CHECK ("status" in ('queued', 'held', 'failed') or "nonce" is not null)
);
--> statement-breakpoint
CREATE INDEX "payouts_open_idx" ON "payouts" ("status", "created_at") WHERE "status" in ('queued', 'signed', 'sent');
--> statement-breakpoint
CREATE TABLE "payout_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payout_id" uuid NOT NULL REFERENCES "payouts"("id"),
	"kind" text NOT NULL,
	"nonce" bigint NOT NULL,
	"tx_hash" text NOT NULL UNIQUE,
	"raw_tx" text NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_broadcast_at" timestamp with time zone,
	CONSTRAINT "payout_attempts_kind" CHECK ("kind" in ('transfer', 'cancel'))
);
--> statement-breakpoint
CREATE INDEX "payout_attempts_payout_idx" ON "payout_attempts" ("payout_id", "created_at");
--> statement-breakpoint
CREATE TABLE "hot_wallet_nonces" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"next_nonce" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hot_wallet_nonces_pk" PRIMARY KEY ("chain_id", "address")
);
