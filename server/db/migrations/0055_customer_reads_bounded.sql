-- Issue 50, customer reads and writes bounded at a million customers (decision 066). Each index serves a query on
-- the customer's path that otherwise scans a table growing with every customer (a login moving its device cookie,
-- the closure checks) or the customer's whole history (the unread page, the blocking rule's first-transfer check,
-- marking chat read, a statement's month). Partial indexes hold only the rows a check looks for, so they stay small.
-- Sign-in moves the browser's device cookie (recordSignInDevice) and the login limiter asks whether it is known:
-- both look the hash up without the user, a sequential scan of every customer's devices.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "known_devices_token_hash_idx" ON "known_devices" ("token_hash");
--> statement-breakpoint
-- The blocking rule's "no transfer to this address within lookback_days" (create_transfer_request): the address
-- index reads every transfer to a popular address, the (user, day) one every transfer of the customer.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "transfer_requests_user_address_created_idx" ON "transfer_requests" ("user_id", lower("crypto_address"), "created_at");
--> statement-breakpoint
-- closure_blocker's "money in flight" checks: the customer's few unfinished rows, not their history or the bank's
-- whole queue of pending transfers.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "transfer_requests_user_in_flight_idx" ON "transfer_requests" ("user_id") WHERE "status" IN ('pending', 'processing');
--> statement-breakpoint
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "transactions_user_in_flight_idx" ON "transactions" ("user_id") WHERE "status" IN ('initiated', 'pending', 'in_review', 'processing');
--> statement-breakpoint
-- has_money_history and closure_blocker read incoming payments by customer; no index had the user.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "incoming_payments_user_created_idx" ON "incoming_payments" ("user_id", "created_at");
--> statement-breakpoint
-- closure_blocker's open holds: a hold is written open and closed once, so this stays the few open ones.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "holds_open_account_idx" ON "holds" ("account_id") WHERE "status" = 'open';
--> statement-breakpoint
-- closure_blocker's open requests on the payer's side (the open pair index leads with the requester).
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "money_requests_open_payer_idx" ON "money_requests" ("payer_id") WHERE "status" = 'open';
--> statement-breakpoint
-- The notification centre's unread page is a keyset on id among unread rows; the bell's capped count reads the
-- same range. Replaces notifications_unread_idx (user_id only), which left the page sorting every unread row.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "notifications_user_unread_id_idx" ON "notifications" ("user_id", "id") WHERE "read_at" IS NULL;
--> statement-breakpoint
-- pillar:concurrently
DROP INDEX IF EXISTS "notifications_unread_idx";
--> statement-breakpoint
-- Opening the chat marks the other side's unread messages read: the unread ones, not the whole conversation.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "chat_messages_user_unread_idx" ON "chat_messages" ("user_id", "is_from_user") WHERE "read_at" IS NULL;
--> statement-breakpoint
-- A statement reads one wallet's postings by month (its lines, its summary, and the opening balance counted from
-- the nearer end of the account's life). Replaces postings_account_idx, which this one's first column covers.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "postings_account_created_idx" ON "postings" ("account_id", "created_at") INCLUDE ("amount");
--> statement-breakpoint
-- pillar:concurrently
DROP INDEX IF EXISTS "postings_account_idx";
--> statement-breakpoint
-- A statement line's fee and the month's fees find the transaction of a posting's entry; with only the user's
-- index that read every transaction the customer ever had, once per line.
-- pillar:concurrently
CREATE INDEX IF NOT EXISTS "transactions_entry_idx" ON "transactions" ("entry_id") WHERE "entry_id" IS NOT NULL;
