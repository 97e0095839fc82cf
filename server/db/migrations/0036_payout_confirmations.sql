-- How deep a sent payout's transaction is, as the payout worker last read it (issue 29): 0 until mined, then
-- head - mined block + 1, capped at CHAIN_CONFIRMATIONS. The customer's history shows it beside the hash, and
-- each change pushes a 'transactions' notice (user-events.sql), so an open dashboard counts the blocks.
ALTER TABLE "payouts" ADD COLUMN "confirmations" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- A completed payout reads as deep as CHAIN_CONFIRMATIONS whatever this holds (transaction-view.ts), so the
-- payouts completed before this column need no value of their own.
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_confirmations_not_negative" CHECK ("confirmations" >= 0);
