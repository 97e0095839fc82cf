-- Issue 51 §2 and §4 (decision 071): the savings rate's maker-checker, the customers' notice of an approved change,
-- and finance's per-day interest figures. savings_rates holds a few rows; savings_interest_days is new and empty.
--
-- A decided rate names its approval (the owner proposes, a second finance member or owner approves on the approvals
-- routes); the rate in force the day before it takes effect is kept when it is approved (the notice says old → new).
-- notice_cursor is the last customer (user id) told of an approved change, notice_done_at when all were: the notice
-- loop tells the customers with open savings in batches after the approval commits, each batch in the transaction
-- that moves the cursor, so each customer is told once.
ALTER TABLE "savings_rates" ADD COLUMN "approval_id" uuid REFERENCES "approvals"("id");
--> statement-breakpoint
ALTER TABLE "savings_rates" ADD COLUMN "previous_bps" integer;
--> statement-breakpoint
ALTER TABLE "savings_rates" ADD COLUMN "notice_cursor" uuid;
--> statement-breakpoint
ALTER TABLE "savings_rates" ADD COLUMN "notice_done_at" timestamp with time zone;
--> statement-breakpoint
-- A rate decided on the approvals routes: its row mirrors the approval's decision (who, when, and a rejection; the
-- approval's action made it approved after checking it may still take effect), so the history is one table.
CREATE OR REPLACE FUNCTION savings_rate_decided() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	UPDATE savings_rates SET approval_id = NEW.id, decided_by = NEW.checker_id, decided_at = NEW.decided_at,
		status = CASE WHEN NEW.status = 'rejected' THEN 'rejected' ELSE status END
		WHERE id = (NEW.payload->>'rateId')::uuid;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "savings_rate_decided" AFTER UPDATE OF "status" ON "approvals"
	FOR EACH ROW WHEN (NEW."kind" = 'savings_rate' AND OLD."status" = 'pending' AND NEW."status" <> 'pending')
	EXECUTE FUNCTION savings_rate_decided();
--> statement-breakpoint
-- Finance's interest by New York day: one row per accrual batch and day (the day's micros and account-days), and one
-- per credit batch (cents paid, accounts paid) on the day the interest is paid. Insert-only, written in the
-- statement that accrues or credits, so no two instances wait on a shared total and a rolled-back batch leaves none;
-- a day's figure is the sum of its few hundred rows (200 batches a day at 1 M accounts).
CREATE TABLE "savings_interest_days" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"day" date NOT NULL,
	"accrued_micros" bigint DEFAULT 0 NOT NULL,
	"account_days" integer DEFAULT 0 NOT NULL,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"accounts_paid" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "savings_interest_days_day_idx" ON "savings_interest_days" ("day");
--> statement-breakpoint
-- What accrued and was paid before this table existed, on each month's last accrued day and its credit's day.
INSERT INTO "savings_interest_days" ("day", "accrued_micros", "account_days")
	SELECT max(i."through"), sum(i."accrued_micros"), sum(i."days") FROM "savings_interest" i
	WHERE i."days" > 0 GROUP BY i."month";
--> statement-breakpoint
INSERT INTO "savings_interest_days" ("day", "paid_cents", "accounts_paid")
	SELECT (i."month" + interval '1 month - 1 day')::date, sum(i."credited_cents"), count(*) FROM "savings_interest" i
	WHERE i."credited_cents" > 0 GROUP BY i."month";
