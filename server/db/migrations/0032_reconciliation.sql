-- Reconciliation of the chain with the ledger (issue 29, decision 038): the token's Transfer logs that touch the
-- hot wallet or a deposit address, read once per final block (at CHAIN_CONFIRMATIONS depth) and kept, how far
-- they were read, and each reconciliation's report with its differences (kept for staff and the CSV download).
CREATE TABLE "chain_token_logs" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"units" numeric(78, 0) NOT NULL,
	CONSTRAINT "chain_token_logs_pk" PRIMARY KEY ("chain_id", "tx_hash", "log_index")
);
--> statement-breakpoint
CREATE INDEX "chain_token_logs_from_idx" ON "chain_token_logs" ("chain_id", "from_address");
--> statement-breakpoint
CREATE INDEX "chain_token_logs_to_idx" ON "chain_token_logs" ("chain_id", "to_address");
--> statement-breakpoint
CREATE TABLE "reconciliation_cursor" (
	"chain_id" integer NOT NULL,
	"hot_address" text NOT NULL,
	"first_block" bigint NOT NULL,
	"opening_units" numeric(78, 0) NOT NULL,
	"next_block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliation_cursor_pk" PRIMARY KEY ("chain_id", "hot_address")
);
--> statement-breakpoint
CREATE TABLE "reconciliation_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain_id" integer NOT NULL,
	"trigger" text NOT NULL,
	"requested_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"status" text NOT NULL,
	"as_of_block" bigint,
	"head_block" bigint,
	"hot_address" text,
	"hot_onchain_units" numeric(78, 0),
	"hot_expected_units" numeric(78, 0),
	"differences" integer DEFAULT 0 NOT NULL,
	"awaiting" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "reconciliation_reports_trigger" CHECK ("trigger" in ('scheduled', 'staff')),
	CONSTRAINT "reconciliation_reports_status" CHECK ("status" in ('running', 'clean', 'differences', 'error'))
);
--> statement-breakpoint
CREATE INDEX "reconciliation_reports_started_idx" ON "reconciliation_reports" ("started_at");
--> statement-breakpoint
CREATE TABLE "reconciliation_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_id" uuid NOT NULL REFERENCES "reconciliation_reports"("id") ON DELETE CASCADE,
	"area" text NOT NULL,
	"kind" text NOT NULL,
	"outcome" text NOT NULL,
	"tx_hash" text,
	"reference" text,
	"chain_units" numeric(78, 0),
	"ledger_units" numeric(78, 0),
	"detail" text NOT NULL,
	CONSTRAINT "reconciliation_items_area" CHECK ("area" in ('hot_wallet', 'payouts', 'deposits')),
	CONSTRAINT "reconciliation_items_outcome" CHECK ("outcome" in ('difference', 'awaiting'))
);
--> statement-breakpoint
CREATE INDEX "reconciliation_items_report_idx" ON "reconciliation_items" ("report_id", "id");
