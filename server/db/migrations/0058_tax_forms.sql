-- Issue 51 §3 (decision 070): Form 1099-INT for savings interest. Both tables are new and empty: no lock on any
-- table that grows with customers.
--
-- A yearly run: one row per run of a tax year, its cursor the last customer (by user id) whose batch committed, so
-- a run killed mid-way goes on from there. A year may be run again (after a late credit or an adjustment): each
-- run is a new row, and at most one run of a year works at a time (the partial unique index).
CREATE TABLE "tax_form_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tax_year" integer NOT NULL,
	"run_number" integer NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"cursor" uuid,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"forms_issued" integer DEFAULT 0 NOT NULL,
	"corrections" integer DEFAULT 0 NOT NULL,
	"started_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "tax_form_runs_status_check" CHECK ("status" in ('running', 'done')),
	CONSTRAINT "tax_form_runs_year_check" CHECK ("tax_year" BETWEEN 2000 AND 2999)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tax_form_runs_year_number_idx" ON "tax_form_runs" ("tax_year", "run_number");
--> statement-breakpoint
CREATE UNIQUE INDEX "tax_form_runs_one_running_idx" ON "tax_form_runs" ("tax_year") WHERE "status" = 'running';
--> statement-breakpoint
-- One Form 1099-INT as issued: the figures, the payer (from configuration at issue) and the recipient (from the
-- approved KYC application at issue), never rewritten. sequence 1 is the original; a later sequence is a CORRECTED
-- form that supersedes the one before (kept, superseded_at set). The recipient's TIN stays sealed under DATA_KEY
-- (the KYC application's ciphertext, copied): only the Publication 1220 export opens it; the PDF prints the last 4.
CREATE TABLE "tax_forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"tax_year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"run_id" uuid NOT NULL REFERENCES "tax_form_runs"("id"),
	"interest_cents" bigint NOT NULL,
	"payer_name" text NOT NULL,
	"payer_tin" text NOT NULL,
	"payer_street" text NOT NULL,
	"payer_city" text NOT NULL,
	"payer_state" text NOT NULL,
	"payer_zip" text NOT NULL,
	"payer_phone" text NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_first_name" text NOT NULL,
	"recipient_last_name" text NOT NULL,
	"recipient_street" text NOT NULL,
	"recipient_city" text NOT NULL,
	"recipient_state" text NOT NULL,
	"recipient_zip" text NOT NULL,
	"tin_last4" text NOT NULL,
	"tin_ciphertext" text NOT NULL,
	"account_number" text NOT NULL,
	"superseded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_forms_sequence_check" CHECK ("sequence" >= 1),
	CONSTRAINT "tax_forms_interest_check" CHECK ("interest_cents" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "tax_forms_user_year_sequence_idx" ON "tax_forms" ("user_id", "tax_year", "sequence");
--> statement-breakpoint
CREATE UNIQUE INDEX "tax_forms_current_idx" ON "tax_forms" ("user_id", "tax_year") WHERE "superseded_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "tax_forms_year_idx" ON "tax_forms" ("tax_year", "user_id");
