-- Issue 48 §1 (decision 056): a deposit is one token log of one transaction, wherever a reorg mines it. Its key was
-- (chain, transaction hash, the BLOCK's log index): a reorg that mined the same transaction at another position made
-- a second row and a second credit. The key is now (chain, transaction hash, the log's place among its
-- transaction's logs); log_index, block_number and block_hash say where it was last seen and move with it.
-- Rows recorded before this migration have no tx_log_index: it needs the receipt, so the deposit watcher fills it
-- (from the receipt of the block the row names) on its next pass, before it reads new logs.
ALTER TABLE "chain_deposits" ADD COLUMN "tx_log_index" integer;
--> statement-breakpoint
ALTER TABLE "chain_deposits" DROP CONSTRAINT "chain_deposits_log_once";
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_log_once" UNIQUE ("chain_id", "tx_hash", "tx_log_index");
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_tx_log_index" CHECK ("tx_log_index" >= 0);
--> statement-breakpoint
-- A booked deposit whose log a reorg deeper than the confirmations took away is reversed: the credit is debited
-- back in one entry (reversal_entry_id). It returns to pending, and is credited once more, if its transaction is
-- mined again.
ALTER TABLE "chain_deposits" ADD COLUMN "reversal_entry_id" uuid REFERENCES "journal_entries"("id");
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "reversed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "chain_deposits" DROP CONSTRAINT "chain_deposits_status";
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_status"
	CHECK ("status" in ('pending', 'held', 'credited', 'below_cent', 'reversed'));
--> statement-breakpoint
ALTER TABLE "chain_deposits" DROP CONSTRAINT "chain_deposits_credited";
--> statement-breakpoint
-- entry_id is the last credit's entry: a reversed deposit keeps it, and so does one pending again after a reversal
-- (reversed_at set) until it is credited anew.
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_credited"
	CHECK (CASE WHEN "status" in ('held', 'credited', 'reversed') THEN "entry_id" is not null
		ELSE ("entry_id" is null) = ("reversed_at" is null) END);
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_reversed"
	CHECK ("status" <> 'reversed' or ("reversal_entry_id" is not null and "reversed_at" is not null));
--> statement-breakpoint
-- Booked deposits near the head are re-read on every pass: only those within the reorg window, by block.
CREATE INDEX "chain_deposits_booked_block_idx" ON "chain_deposits" ("chain_id", "block_number")
	WHERE "status" in ('held', 'credited', 'reversed');
--> statement-breakpoint
-- What the customer had already spent of a reversed deposit: the one way a wallet's available balance may be
-- below zero, and only by this much. It only shrinks afterwards (functions/returned-deposit.sql, at commit), so
-- money that arrives pays it back first and nothing can be sent while it lasts.
ALTER TABLE "ledger_accounts" ADD COLUMN "returned_owed" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_returned_owed_not_negative" CHECK ("returned_owed" >= 0);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_available_not_negative";
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_available_not_negative"
	CHECK ("balance" - "held" >= -"returned_owed");
