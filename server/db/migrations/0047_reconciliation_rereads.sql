-- Issue 48 (decision 057). Reconciliation reads a window of blocks again on every run, so a token log keeps its
-- block's hash (a log of the same block hash needs no second receipt read) and its place within its transaction
-- (tx_log_index: a log's identity, chain-logs.ts), which a re-mined transaction keeps. Rows read before this
-- migration have neither; the next run reads their blocks again.
ALTER TABLE "chain_token_logs" ADD COLUMN "tx_log_index" integer;
--> statement-breakpoint
ALTER TABLE "chain_token_logs" ADD COLUMN "block_hash" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "chain_token_logs_tx_log_once" ON "chain_token_logs" ("chain_id", "tx_hash", "tx_log_index")
	WHERE "tx_log_index" is not null;
--> statement-breakpoint
CREATE INDEX "chain_token_logs_block_idx" ON "chain_token_logs" ("chain_id", "block_number");
--> statement-breakpoint
-- A difference is reported once: kept open from the run that first saw it (its block) until a run no longer finds
-- it (resolved, with that run's block). The key is kind, transaction and reference (for a balance, the gap too).
-- An acknowledgment (decision 040) belongs to the difference.
CREATE TABLE "reconciliation_differences" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"key" text NOT NULL,
	"area" text NOT NULL,
	"kind" text NOT NULL,
	"tx_hash" text,
	"reference" text,
	"chain_units" numeric(78, 0),
	"ledger_units" numeric(78, 0),
	"detail" text NOT NULL,
	"first_report_id" uuid NOT NULL REFERENCES "reconciliation_reports"("id") ON DELETE CASCADE,
	"first_seen_block" bigint NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_report_id" uuid NOT NULL REFERENCES "reconciliation_reports"("id") ON DELETE CASCADE,
	"last_seen_block" bigint NOT NULL,
	"resolved_report_id" uuid REFERENCES "reconciliation_reports"("id") ON DELETE SET NULL,
	"resolved_block" bigint,
	"resolved_at" timestamp with time zone,
	"acknowledged_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledgment_reason" text,
	CONSTRAINT "reconciliation_differences_resolved" CHECK (("resolved_at" is null) = ("resolved_block" is null)),
	CONSTRAINT "reconciliation_differences_acknowledged" CHECK (("acknowledged_at" is null) = ("acknowledgment_reason" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_differences_open_once" ON "reconciliation_differences" ("chain_id", "key")
	WHERE "resolved_at" is null;
--> statement-breakpoint
ALTER TABLE "reconciliation_items" ADD COLUMN "difference_id" bigint REFERENCES "reconciliation_differences"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX "reconciliation_items_difference_idx" ON "reconciliation_items" ("difference_id") WHERE "difference_id" is not null;
--> statement-breakpoint
ALTER TABLE "reconciliation_items" DROP CONSTRAINT "reconciliation_items_outcome";
--> statement-breakpoint
ALTER TABLE "reconciliation_items" ADD CONSTRAINT "reconciliation_items_outcome"
	CHECK ("outcome" in ('difference', 'awaiting', 'resolved'));
--> statement-breakpoint
-- A report counts the differences it found first and those it found resolved, beside all it found open.
ALTER TABLE "reconciliation_reports" ADD COLUMN "new_differences" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "reconciliation_reports" ADD COLUMN "resolved" integer DEFAULT 0 NOT NULL;
