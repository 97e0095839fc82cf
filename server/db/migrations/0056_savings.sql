-- Issue 51 (decision 068): savings at a variable APY. Every table here is new and empty; the two rows added to
-- ledger_accounts are the interest accounts (a few-row insert, no lock on the wallets).
--
-- A savings account is its own ledger account (kind 'savings', code 'savings:' || its id, no user_id: the
-- customer's wallet keeps ledger_accounts.user_id to itself, so every "the customer's wallet" query stays one row).
-- It caches its balance as a wallet does, under the same CHECKs (never below zero, never past the cap).
INSERT INTO "ledger_accounts" ("code", "kind") VALUES ('interest_expense', 'system'), ('interest_payable', 'system') ON CONFLICT ("code") DO NOTHING;
--> statement-breakpoint
-- The APY in basis points (250 = 2.50 %) from a New York day on. A rate is proposed by one finance member and
-- approved by a second (maker-checker); the rate of a day is the approved one with the latest effective_on on or
-- before it. The advertised 2.50 % holds from the start.
CREATE TABLE "savings_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"apy_bps" integer NOT NULL,
	"effective_on" date NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"proposed_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"decided_by" uuid REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "savings_rates_apy_check" CHECK ("apy_bps" >= 0 AND "apy_bps" <= 2000),
	CONSTRAINT "savings_rates_status_check" CHECK ("status" in ('proposed', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "savings_rates_effective_idx" ON "savings_rates" ("effective_on") WHERE "status" = 'approved';
--> statement-breakpoint
INSERT INTO "savings_rates" ("apy_bps", "effective_on", "status", "decided_at") VALUES (250, '2000-01-01', 'approved', now());
--> statement-breakpoint
-- One open savings account per customer. accrued_through is the last New York day whose closing balance has
-- accrued (NULL: none yet), closing_balance that day's closing balance in cents: the next day's is it plus that
-- day's postings, so a day's accrual reads one day of postings, never the account's history. awaiting_credit: the
-- account accrued to a month's last day and that month's credit (part of the next day's balance) has not been
-- made; on this row, so a claim that locks the row reads it as of the lock.
CREATE TABLE "savings_accounts" (
	"account_id" uuid PRIMARY KEY NOT NULL REFERENCES "ledger_accounts"("id"),
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"opened_on" date NOT NULL,
	"closed_at" timestamp with time zone,
	"accrued_through" date,
	"closing_balance" bigint DEFAULT 0 NOT NULL,
	"awaiting_credit" boolean DEFAULT false NOT NULL,
	CONSTRAINT "savings_accounts_accrued_check" CHECK ("accrued_through" IS NULL OR "accrued_through" >= "opened_on")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "savings_accounts_open_user_idx" ON "savings_accounts" ("user_id") WHERE "closed_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "savings_accounts_user_idx" ON "savings_accounts" ("user_id");
--> statement-breakpoint
-- The accrual's work list: each open account by the next day it accrues (accrue_savings, interestPass).
CREATE INDEX "savings_accounts_next_day_idx" ON "savings_accounts" ((coalesce("accrued_through" + 1, "opened_on")), "account_id") WHERE "closed_at" IS NULL;
--> statement-breakpoint
-- A savings account's interest for one month: the days accrued so far (through), the sum of their closing
-- balances (cents × days, for the average daily balance a statement's APY earned is figured on) and the interest
-- accrued in millionths of a dollar. The month's credit rounds accrued + carry_in down to the cent; what is left
-- below the cent is carried into the next month. credited_cents is NULL until credited.
CREATE TABLE "savings_interest" (
	"account_id" uuid NOT NULL REFERENCES "savings_accounts"("account_id"),
	"month" date NOT NULL,
	"days" integer DEFAULT 0 NOT NULL,
	"balance_days" bigint DEFAULT 0 NOT NULL,
	"accrued_micros" bigint DEFAULT 0 NOT NULL,
	"through" date NOT NULL,
	"carry_in_micros" bigint DEFAULT 0 NOT NULL,
	"credited_cents" bigint,
	"carry_out_micros" bigint,
	"entry_id" uuid REFERENCES "journal_entries"("id"),
	"credited_at" timestamp with time zone,
	CONSTRAINT "savings_interest_pkey" PRIMARY KEY ("account_id", "month"),
	CONSTRAINT "savings_interest_month_check" CHECK (extract(day from "month") = 1),
	CONSTRAINT "savings_interest_amounts_check" CHECK ("accrued_micros" >= 0 AND "balance_days" >= 0 AND "carry_in_micros" >= 0 AND "carry_in_micros" < 10000),
	CONSTRAINT "savings_interest_credit_check" CHECK (("credited_cents" IS NULL) = ("carry_out_micros" IS NULL)
		AND ("credited_cents" IS NULL OR "credited_cents" * 10000 + "carry_out_micros" = "accrued_micros" + "carry_in_micros"))
);
--> statement-breakpoint
CREATE INDEX "savings_interest_uncredited_idx" ON "savings_interest" ("month", "account_id") WHERE "credited_cents" IS NULL;
--> statement-breakpoint
-- Savings goals: a name, a target and an optional date; moves may name one, and its progress is their sum.
CREATE TABLE "savings_goals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"name" text NOT NULL,
	"target_cents" bigint NOT NULL,
	"target_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "savings_goals_target_check" CHECK ("target_cents" > 0 AND "target_cents" <= 1000000000000),
	CONSTRAINT "savings_goals_name_check" CHECK (char_length("name") BETWEEN 1 AND 60)
);
--> statement-breakpoint
CREATE INDEX "savings_goals_user_idx" ON "savings_goals" ("user_id", "created_at");
--> statement-breakpoint
-- Money moved between a customer's checking and savings: one journal entry, settled at once, no fee. amount is
-- positive; direction says which way.
CREATE TABLE "savings_moves" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"account_id" uuid NOT NULL REFERENCES "savings_accounts"("account_id"),
	"direction" text NOT NULL,
	"amount" bigint NOT NULL,
	"goal_id" uuid REFERENCES "savings_goals"("id"),
	"entry_id" uuid NOT NULL REFERENCES "journal_entries"("id"),
	"transaction_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "savings_moves_direction_check" CHECK ("direction" in ('to_savings', 'to_checking', 'closing')),
	CONSTRAINT "savings_moves_amount_check" CHECK ("amount" > 0)
);
--> statement-breakpoint
CREATE INDEX "savings_moves_account_created_idx" ON "savings_moves" ("account_id", "created_at");
--> statement-breakpoint
CREATE INDEX "savings_moves_goal_idx" ON "savings_moves" ("goal_id") WHERE "goal_id" IS NOT NULL;
