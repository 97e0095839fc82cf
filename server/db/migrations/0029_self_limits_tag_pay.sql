-- The customer's own guard rails and payments between customers by $tag (issue 32 §4, §5; decision 035).
--
-- customer_limits: one row per customer who set one. daily_limit_cents is the personal daily limit in force (NULL:
-- only the bank's); a raise waits 24 hours in raise_to_cents / raise_at (raise_at set, raise_to_cents NULL: back to
-- the bank's limit). block_on is "Block crypto sends"; turning it off sets blocked_until, the end of the chosen
-- cooldown, until which sends stay blocked. The rules that read and write these are functions in
-- server/db/functions/self-limits.sql; the trigger below keeps the one rule no route may break: a running cooldown
-- never gets shorter, whoever writes the row.
CREATE TABLE "customer_limits" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"daily_limit_cents" bigint,
	"raise_to_cents" bigint,
	"raise_at" timestamp with time zone,
	"block_on" boolean DEFAULT false NOT NULL,
	"block_cooldown" text,
	"blocked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_limits_daily_positive" CHECK ("daily_limit_cents" > 0),
	CONSTRAINT "customer_limits_raise_positive" CHECK ("raise_to_cents" > 0),
	CONSTRAINT "customer_limits_raise_dated" CHECK ("raise_to_cents" IS NULL OR "raise_at" IS NOT NULL),
	CONSTRAINT "customer_limits_cooldown_known"
		CHECK ("block_cooldown" IN ('24 hours', '7 days', '30 days', '12 months')),
	CONSTRAINT "customer_limits_block_has_cooldown" CHECK (NOT "block_on" OR "block_cooldown" IS NOT NULL)
);
--> statement-breakpoint
CREATE FUNCTION "customer_limits_keep_cooldown"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		-- Only with the customer's own row (ON DELETE CASCADE): the user is already gone by then.
		IF (OLD.block_on OR OLD.blocked_until > now())
				AND EXISTS (SELECT 1 FROM users u WHERE u.id = OLD.user_id) THEN
			RAISE EXCEPTION 'a send block or its cooldown cannot be removed' USING ERRCODE = 'check_violation';
		END IF;
		RETURN OLD;
	END IF;
	IF OLD.blocked_until > now() AND (NEW.blocked_until IS NULL OR NEW.blocked_until < OLD.blocked_until) THEN
		RAISE EXCEPTION 'a running cooldown cannot be shortened' USING ERRCODE = 'check_violation';
	END IF;
	IF OLD.block_on AND NOT NEW.block_on
			AND (NEW.blocked_until IS NULL OR NEW.blocked_until < now() + OLD.block_cooldown::interval) THEN
		RAISE EXCEPTION 'turning a send block off must start its full cooldown' USING ERRCODE = 'check_violation';
	END IF;
	IF OLD.block_on AND NEW.block_on AND NEW.block_cooldown::interval < OLD.block_cooldown::interval THEN
		RAISE EXCEPTION 'a send block''s cooldown cannot be shortened' USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "customer_limits_keep_cooldown" BEFORE UPDATE OR DELETE ON "customer_limits"
	FOR EACH ROW EXECUTE FUNCTION "customer_limits_keep_cooldown"();
--> statement-breakpoint
-- What staff may do about a customer's limits: write a note. Nothing else changes them.
CREATE TABLE "customer_limit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"staff_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_limit_notes_length" CHECK (length("note") BETWEEN 1 AND 1000)
);
--> statement-breakpoint
CREATE INDEX "customer_limit_notes_user_idx" ON "customer_limit_notes" ("user_id", "created_at");
--> statement-breakpoint
-- A payment from one customer's wallet to another's by $tag: one journal entry, settled at once, no fee. It counts
-- on the payer's limit day like a transfer request (transfers_today).
CREATE TABLE "tag_payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"payer_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"payee_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"payer_tag" text NOT NULL,
	"payee_tag" text NOT NULL,
	"amount" bigint NOT NULL,
	"note" text,
	"limit_day" text NOT NULL,
	"entry_id" uuid NOT NULL REFERENCES "journal_entries"("id"),
	"payer_transaction_id" uuid NOT NULL REFERENCES "transactions"("id"),
	"payee_transaction_id" uuid NOT NULL REFERENCES "transactions"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tag_payments_amount_positive" CHECK ("amount" > 0),
	CONSTRAINT "tag_payments_two_parties" CHECK ("payer_id" <> "payee_id")
);
--> statement-breakpoint
CREATE INDEX "tag_payments_payer_day_idx" ON "tag_payments" ("payer_id", "limit_day");
--> statement-breakpoint
CREATE INDEX "tag_payments_payee_idx" ON "tag_payments" ("payee_id", "created_at");
