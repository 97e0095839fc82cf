-- The minimal careful transfer (../shared/bench/minimal-transfer.sql): lock the wallet, today's total, the
-- request, the hold, the pending transaction, the wallet update. npm run bench runs it with pgbench.
\set uid random(1, 1000)
\set amt random(100, 5000)
BEGIN;
SELECT balance - held AS avail FROM wallets WHERE id = :uid FOR UPDATE;
SELECT coalesce(sum(amount),0) FROM transfer_requests WHERE user_id = :uid AND created_at >= date_trunc('day', now() AT TIME ZONE 'America/New_York') AT TIME ZONE 'America/New_York' AND status IN ('pending','processing','completed');
INSERT INTO transfer_requests (user_id, amount, fee, status, idem_key) VALUES (:uid, :amt, :amt * 2 / 100, 'pending', md5(random()::text)) RETURNING id;
INSERT INTO holds (wallet_id, request_id, amount) VALUES (:uid, currval('transfer_requests_id_seq'), :amt);
INSERT INTO transactions (user_id, type, amount, fee, net, status, category) VALUES (:uid, 'debit', :amt, :amt*2/100, :amt - :amt*2/100, 'pending', 'other');
UPDATE wallets SET held = held + :amt WHERE id = :uid;
COMMIT;
