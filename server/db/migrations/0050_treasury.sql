-- Issue 48, treasury (decision 060). Deposit addresses are of two kinds: 'xpub' (derived from DEPOSIT_XPUB, the
-- server holds no key: not sweepable by the server) and 'create2' (the CREATE2 address of a deposit forwarder for
-- `salt` under the factory DEPOSIT_FACTORY: swept by the hot wallet through the factory). Treasury movements are
-- transactions the hot wallet signs that are not payouts: a sweep (deposit address to hot wallet), the surplus
-- above HOT_WALLET_CEILING to cold, a return of an uncredited deposit to its sender. Like payouts, every signed
-- transaction is stored before it is broadcast, and its nonce comes from hot_wallet_nonces under its row lock.
ALTER TABLE "deposit_addresses" ADD COLUMN "kind" text DEFAULT 'xpub' NOT NULL;
--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD COLUMN "salt" text;
--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD COLUMN "factory" text;
--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_kind" CHECK (("kind" = 'xpub' and "salt" is null and "factory" is null) or ("kind" = 'create2' and "salt" is not null and "factory" is not null));
--> statement-breakpoint
CREATE TABLE "treasury_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"salt" text,
	"deposit_id" uuid REFERENCES "chain_deposits"("id"),
	"approval_id" uuid REFERENCES "approvals"("id"),
	"units" numeric(78, 0) NOT NULL,
	"mined_units" numeric(78, 0),
	"signer_address" text,
	"nonce" bigint,
	"waiting_reason" text,
	"failure_reason" text,
	"mined_hash" text,
	"mined_block" bigint,
	"mined_block_hash" text,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_at" timestamp with time zone,
	"last_broadcast_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	CONSTRAINT "treasury_movements_kind" CHECK ("kind" in ('sweep', 'to_cold', 'return')),
	CONSTRAINT "treasury_movements_status" CHECK ("status" in ('queued', 'signed', 'sent', 'completed', 'failed')),
	CONSTRAINT "treasury_movements_units" CHECK ("units" >= 0),
	CONSTRAINT "treasury_movements_signed_has_nonce" CHECK ("status" in ('queued', 'failed') or "nonce" is not null),
	CONSTRAINT "treasury_movements_sweep_has_salt" CHECK (("kind" = 'sweep') = ("salt" is not null)),
	CONSTRAINT "treasury_movements_return_has_deposit" CHECK (("kind" = 'return') = ("deposit_id" is not null)),
	CONSTRAINT "treasury_movements_nonce_once" UNIQUE ("chain_id", "signer_address", "nonce")
);
--> statement-breakpoint
CREATE INDEX "treasury_movements_open_idx" ON "treasury_movements" ("status", "created_at") WHERE "status" in ('queued', 'signed', 'sent');
--> statement-breakpoint
CREATE UNIQUE INDEX "treasury_movements_one_open_sweep" ON "treasury_movements" ("chain_id", "from_address") WHERE "kind" = 'sweep' and "status" in ('queued', 'signed', 'sent');
--> statement-breakpoint
CREATE UNIQUE INDEX "treasury_movements_one_open_to_cold" ON "treasury_movements" ("chain_id") WHERE "kind" = 'to_cold' and "status" in ('queued', 'signed', 'sent');
--> statement-breakpoint
CREATE UNIQUE INDEX "treasury_movements_one_return" ON "treasury_movements" ("deposit_id") WHERE "kind" = 'return' and "status" <> 'failed';
--> statement-breakpoint
CREATE TABLE "treasury_movement_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"movement_id" uuid NOT NULL REFERENCES "treasury_movements"("id"),
	"nonce" bigint NOT NULL,
	"tx_hash" text NOT NULL UNIQUE,
	"raw_tx" text NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"first_broadcast_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "treasury_movement_attempts_movement_idx" ON "treasury_movement_attempts" ("movement_id", "created_at");
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "returned_by" uuid REFERENCES "treasury_movements"("id");
