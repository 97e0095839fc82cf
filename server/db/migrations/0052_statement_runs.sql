-- Issue 50 §2 (decision 062): the month-end statement run. statement_runs has one row per month, its cursor the
-- last customer (by user id) whose batch committed, so a run killed mid-way goes on from there; statements holds
-- each customer's figures for a closed month, written once (its key is user + month). Both tables are new and
-- empty: no lock on any table that grows with customers.
CREATE TABLE "statement_runs" (
	"month" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"cursor" uuid,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "statement_runs_status_check" CHECK ("status" in ('running', 'done')),
	CONSTRAINT "statement_runs_month_check" CHECK ("month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$')
);
--> statement-breakpoint
CREATE TABLE "statements" (
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"month" text NOT NULL,
	"wallet_id" uuid NOT NULL,
	"opening" bigint NOT NULL,
	"money_in" bigint NOT NULL,
	"money_out" bigint NOT NULL,
	"fees" bigint NOT NULL,
	"closing" bigint NOT NULL,
	"count" integer NOT NULL,
	"digest" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "statements_pkey" PRIMARY KEY ("user_id", "month"),
	CONSTRAINT "statements_balanced_check" CHECK ("closing" = "opening" + "money_in" + "money_out")
);
