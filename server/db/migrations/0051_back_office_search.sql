-- Issue 50, the back office over a million customers (decision 061). Search: trigram indexes (pg_trgm) serve a
-- fragment of a name, an e-mail or a $tag; the last four digits of an account number and a crypto address are
-- exact lookups on their own indexes. Stats: the headline figures are kept by statement triggers as append-only
-- deltas (no row is locked, so no write waits on another or deadlocks), folded into one row by a loop; a read
-- is that row plus the deltas not folded yet, exact in any snapshot.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
--> statement-breakpoint
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "users_pillar_tag_trgm_idx" ON "users" USING gin ("pillar_tag" gin_trgm_ops);
--> statement-breakpoint
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);
--> statement-breakpoint
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "account_requests_last4_idx" ON "account_requests" (right("account_number", 4)) WHERE "account_number" IS NOT NULL;
--> statement-breakpoint
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "saved_recipients_address_idx" ON "saved_recipients" (lower("address"));
--> statement-breakpoint
-- The back-office lists' status filters, each on an index matching its filter and its (created_at, id) order: a
-- rare status (a failed transaction, an account in review) was a walk over the whole table.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "kyc_applications_status_created_id_idx" ON "kyc_applications" ("status", "created_at", "id");
--> statement-breakpoint
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "account_requests_status_created_id_idx" ON "account_requests" ("status", "created_at", "id");
--> statement-breakpoint
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "transactions_status_created_id_idx" ON "transactions" ("status", "created_at", "id");
--> statement-breakpoint
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "incoming_payments_status_created_id_idx" ON "incoming_payments" ("status", "created_at", "id");
--> statement-breakpoint
CREATE TABLE "admin_stats" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL CONSTRAINT "admin_stats_id_check" CHECK ("id" = 1),
	"customers" bigint NOT NULL,
	"active_accounts" bigint NOT NULL,
	"wallet_balance" bigint NOT NULL,
	"transactions" bigint NOT NULL,
	"folded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "admin_stats_deltas" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"customers" bigint DEFAULT 0 NOT NULL,
	"active_accounts" bigint DEFAULT 0 NOT NULL,
	"wallet_balance" bigint DEFAULT 0 NOT NULL,
	"transactions" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- One function per counted table, run once per statement over its transition tables (a bulk insert of a million
-- rows adds one delta row). TG_OP picks which transition tables the trigger has.
CREATE FUNCTION "admin_stats_users"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	v bigint := 0;
BEGIN
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		v := v + (SELECT count(*) FROM new_rows WHERE NOT is_admin);
	END IF;
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		v := v - (SELECT count(*) FROM old_rows WHERE NOT is_admin);
	END IF;
	IF v <> 0 THEN
		INSERT INTO admin_stats_deltas (customers) VALUES (v);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "admin_stats_account_requests"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	v bigint := 0;
BEGIN
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		v := v + (SELECT count(*) FROM new_rows WHERE status = 'approved' AND superseded_at IS NULL);
	END IF;
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		v := v - (SELECT count(*) FROM old_rows WHERE status = 'approved' AND superseded_at IS NULL);
	END IF;
	IF v <> 0 THEN
		INSERT INTO admin_stats_deltas (active_accounts) VALUES (v);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "admin_stats_wallets"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	v bigint := 0;
BEGIN
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		v := v + (SELECT coalesce(sum(balance), 0) FROM new_rows WHERE kind = 'wallet');
	END IF;
	IF TG_OP IN ('DELETE', 'UPDATE') THEN
		v := v - (SELECT coalesce(sum(balance), 0) FROM old_rows WHERE kind = 'wallet');
	END IF;
	IF v <> 0 THEN
		INSERT INTO admin_stats_deltas (wallet_balance) VALUES (v);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "admin_stats_transactions"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	v bigint := 0;
BEGIN
	IF TG_OP = 'INSERT' THEN
		v := (SELECT count(*) FROM new_rows);
	ELSE
		v := -(SELECT count(*) FROM old_rows);
	END IF;
	IF v <> 0 THEN
		INSERT INTO admin_stats_deltas (transactions) VALUES (v);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "admin_stats_users_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_users"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_users_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_users"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_users_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_users"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_account_requests_insert" AFTER INSERT ON "account_requests" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_account_requests"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_account_requests_update" AFTER UPDATE ON "account_requests" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_account_requests"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_account_requests_delete" AFTER DELETE ON "account_requests" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_account_requests"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_wallets_insert" AFTER INSERT ON "ledger_accounts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_wallets"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_wallets_update" AFTER UPDATE ON "ledger_accounts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_wallets"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_wallets_delete" AFTER DELETE ON "ledger_accounts" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_wallets"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_transactions_insert" AFTER INSERT ON "transactions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_transactions"();
--> statement-breakpoint
CREATE TRIGGER "admin_stats_transactions_delete" AFTER DELETE ON "transactions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "admin_stats_transactions"();
--> statement-breakpoint
-- The starting figures, counted in a statement of their own after the triggers committed (a count of every
-- transaction under the triggers' locks would keep writers out for seconds at a million customers): the deltas the
-- count's snapshot sees are deleted by the same statement, since the rows they stand for are in the count, and the
-- deltas of writes committed after it stay. Run again after a kill, it counts again the same way.
-- pillar:outside-transaction
WITH "counted" AS (DELETE FROM "admin_stats_deltas" RETURNING 1)
INSERT INTO "admin_stats" ("customers", "active_accounts", "wallet_balance", "transactions") VALUES (
	(SELECT count(*) FROM "users" WHERE NOT "is_admin"),
	(SELECT count(*) FROM "account_requests" WHERE "status" = 'approved' AND "superseded_at" IS NULL),
	(SELECT coalesce(sum("balance"), 0) FROM "ledger_accounts" WHERE "kind" = 'wallet'),
	(SELECT count(*) FROM "transactions")
)
ON CONFLICT ("id") DO UPDATE SET "customers" = excluded."customers", "active_accounts" = excluded."active_accounts",
	"wallet_balance" = excluded."wallet_balance", "transactions" = excluded."transactions", "folded_at" = now();
