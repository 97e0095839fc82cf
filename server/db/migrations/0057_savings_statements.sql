-- Issue 51 §3 (decision 069): the monthly savings statement. savings_statements holds each savings account's figures
-- for a month, written once by the month-end run (its key is account + month) and only after that month's interest
-- was credited (or the account closed in it): the statement's interest earned and Annual Percentage Yield Earned are
-- final then. statement_runs gains the savings phase's cursor and counts: a month's run does its checking statements,
-- then its savings accounts in account id order, waiting at the first whose month is not credited yet. The table is
-- new and empty; the three columns added to statement_runs (a row a month) take no table rewrite.
ALTER TABLE "statement_runs" ADD COLUMN "checking_done_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "statement_runs" ADD COLUMN "savings_cursor" uuid;
--> statement-breakpoint
ALTER TABLE "statement_runs" ADD COLUMN "savings_total" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "statement_runs" ADD COLUMN "savings_done" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TABLE "savings_statements" (
	"account_id" uuid NOT NULL REFERENCES "savings_accounts"("account_id"),
	"month" text NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"opening" bigint NOT NULL,
	"deposits" bigint NOT NULL,
	"withdrawals" bigint NOT NULL,
	"interest" bigint NOT NULL,
	"closing" bigint NOT NULL,
	"count" integer NOT NULL,
	"days" integer NOT NULL,
	"balance_days" bigint NOT NULL,
	"apy_earned" numeric(9, 2) NOT NULL,
	"digest" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "savings_statements_pkey" PRIMARY KEY ("account_id", "month"),
	CONSTRAINT "savings_statements_month_check" CHECK ("month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
	CONSTRAINT "savings_statements_balanced_check" CHECK ("closing" = "opening" + "deposits" + "withdrawals" + "interest")
);
--> statement-breakpoint
CREATE INDEX "savings_statements_user_idx" ON "savings_statements" ("user_id", "month");
