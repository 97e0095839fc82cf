-- Issue 49 (decision 049): a transfer request writes less inside the wallet lock. The "This wasn't me" link and
-- the "Transfer requested" mail left the request for the jobs room (server/jobs/consumers/transfer-mail.ts);
-- what the function still writes keeps only the index entries and foreign-key checks a read or a rule needs.
--
-- create_transfer_request(jsonb) and its batched form answer one more column (the listed addresses a screen
-- found): a function's result type cannot be replaced, so both are dropped here and made again from
-- server/db/functions/create-transfer-request.sql, applied after every migration.
DROP FUNCTION IF EXISTS create_transfer_requests(jsonb);
--> statement-breakpoint
DROP FUNCTION IF EXISTS create_transfer_request(jsonb);
--> statement-breakpoint
-- Open holds per account were read only by the ledger verification (verifyLedger), which now sums every
-- account's open holds in one grouped pass; a hold's own reads go by its id.
DROP INDEX IF EXISTS "holds_account_open_idx";
--> statement-breakpoint
-- A transfer's hold, pending debit and request are written together by create_transfer_request, in one
-- transaction under the wallet lock, and neither holds nor transactions are ever deleted: these checks could
-- never fail, and each was a probe and a KEY SHARE lock on a row the same call had just written or locked.
-- The foreign keys to users stay: they carry what a deleted customer leaves behind (SET NULL, CASCADE).
ALTER TABLE "transfer_requests" DROP CONSTRAINT IF EXISTS "transfer_requests_hold_id_holds_id_fk";
--> statement-breakpoint
ALTER TABLE "transfer_requests" DROP CONSTRAINT IF EXISTS "transfer_requests_transaction_id_transactions_id_fk";
--> statement-breakpoint
ALTER TABLE "holds" DROP CONSTRAINT IF EXISTS "holds_account_id_ledger_accounts_id_fk";
