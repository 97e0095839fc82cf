-- Issue 48 (decision 058): what the payout worker last saw of the hot wallet, one row per chain and address,
-- written at the end of each pass: its USDC and gas (the /metrics gauges read this row rather than the node),
-- the chain's nonces against the ones Pillar handed out, and a nonce gap or a nonce used outside Pillar.
CREATE TABLE "hot_wallet_status" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"usdc_units" numeric(78, 0) NOT NULL,
	"gas_wei" numeric(78, 0) NOT NULL,
	"base_fee_wei" numeric(78, 0) NOT NULL,
	"market_max_fee_wei" numeric(78, 0) NOT NULL,
	"latest_nonce" bigint NOT NULL,
	"pending_nonce" bigint NOT NULL,
	"handed_out_nonce" bigint,
	"nonce_alert" text,
	"nonce_alert_nonce" bigint,
	"observed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hot_wallet_status_pk" PRIMARY KEY ("chain_id", "address"),
	CONSTRAINT "hot_wallet_status_nonce_alert" CHECK ("nonce_alert" in ('gap', 'used_outside'))
);
