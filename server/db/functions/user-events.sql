-- Pushed updates (decision 034): every change a customer's screens show adds a "this changed" notice to their
-- log in the same transaction, from triggers, so no code path or worker can forget one. A user's notices are
-- numbered 1, 2, 3… by user_event_counters, whose row lock (held to commit) makes them commit in that order:
-- a stream that has sent notice n and reads "id > n" can never skip a notice committed later with a lower
-- number. One transaction makes one notice per user (its topics merged). pg_notify, delivered at commit, wakes
-- the streams on every instance; the last 200 notices per user are kept for Last-Event-ID resumes.
CREATE OR REPLACE FUNCTION emit_user_event(p_user_id uuid, p_topics text[])
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	v_last bigint;
	v_topics text[];
BEGIN
	-- A money function writing its own event (pushes_by_caller, event-log.sql): its notices go out after the
	-- commit, from the event, through the jobs room's pushes consumer.
	IF p_user_id IS NULL OR current_setting('pillar.pushes_by_caller', true) = 'on' THEN
		RETURN;
	END IF;
	-- Deleting a user cascades to rows whose triggers land here (their notifications, transactions): nobody is
	-- left to tell, and their counter could not be written (its foreign key), which failed the deletion.
	PERFORM 1 FROM users WHERE id = p_user_id;
	IF NOT FOUND THEN
		RETURN;
	END IF;
	INSERT INTO user_event_counters AS c (user_id, last_id) VALUES (p_user_id, 0)
		ON CONFLICT (user_id) DO UPDATE SET last_id = c.last_id
		RETURNING c.last_id INTO v_last;
	SELECT e.topics INTO v_topics FROM user_events e
		WHERE e.user_id = p_user_id AND e.id = v_last AND e.xact = pg_current_xact_id();
	IF FOUND THEN
		IF NOT v_topics @> p_topics THEN
			UPDATE user_events SET topics = ARRAY(SELECT DISTINCT t FROM unnest(v_topics || p_topics) t ORDER BY 1)
				WHERE user_id = p_user_id AND id = v_last;
		END IF;
	ELSE
		v_last := v_last + 1;
		UPDATE user_event_counters SET last_id = v_last WHERE user_id = p_user_id;
		INSERT INTO user_events (user_id, id, topics)
			VALUES (p_user_id, v_last, ARRAY(SELECT DISTINCT t FROM unnest(p_topics) t ORDER BY 1));
		DELETE FROM user_events WHERE user_id = p_user_id AND id <= v_last - 200;
	END IF;
	PERFORM pg_notify('pillar_events', p_user_id::text);
END
$$;
--> statement-breakpoint
-- Rows with a user_id column: the owner's screens named by the trigger's arguments changed.
CREATE OR REPLACE FUNCTION user_events_from_row()
RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'DELETE' THEN
		PERFORM emit_user_event(NEW.user_id, TG_ARGV::text[]);
	END IF;
	IF TG_OP = 'DELETE' OR OLD.user_id IS DISTINCT FROM NEW.user_id THEN
		PERFORM emit_user_event(OLD.user_id, TG_ARGV::text[]);
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- A freeze or a status change on the user row: their account's state changed.
CREATE OR REPLACE FUNCTION user_events_from_user()
RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM emit_user_event(NEW.id, TG_ARGV::text[]);
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- A session ended: no notice (nothing on screen changed), only a wake-up, so the user's open streams re-check
-- their session at once. No counter lock: the hourly sweep deletes many users' sessions in one statement.
CREATE OR REPLACE FUNCTION user_events_wake()
RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('pillar_events', OLD.user_id::text);
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- The three a money movement writes skip even the call when its function writes its own event (pushes_by_caller):
-- the condition is checked per row without running any trigger function.
CREATE OR REPLACE TRIGGER user_events_transactions AFTER INSERT OR UPDATE OR DELETE ON transactions
	FOR EACH ROW WHEN (current_setting('pillar.pushes_by_caller', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION user_events_from_row('transactions', 'summary');
--> statement-breakpoint
-- Only a customer's own account (a wallet) has someone to tell: a savings account's or the bank's row has no
-- user_id, and a month's interest credit updates thousands of savings rows in one statement.
CREATE OR REPLACE TRIGGER user_events_wallets AFTER UPDATE OF balance, held ON ledger_accounts
	FOR EACH ROW WHEN (NEW.user_id IS NOT NULL
		AND (OLD.balance IS DISTINCT FROM NEW.balance OR OLD.held IS DISTINCT FROM NEW.held)
		AND current_setting('pillar.pushes_by_caller', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION user_events_from_row('summary');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_events_transfers AFTER INSERT OR UPDATE ON transfer_requests
	FOR EACH ROW WHEN (current_setting('pillar.pushes_by_caller', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION user_events_from_row('transfers', 'transactions');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_events_kyc AFTER INSERT OR UPDATE ON kyc_applications
	FOR EACH ROW EXECUTE FUNCTION user_events_from_row('kyc');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_events_account_requests AFTER INSERT OR UPDATE ON account_requests
	FOR EACH ROW EXECUTE FUNCTION user_events_from_row('account', 'kyc');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_events_chat AFTER INSERT OR UPDATE OF read_at ON chat_messages
	FOR EACH ROW EXECUTE FUNCTION user_events_from_row('chat');
--> statement-breakpoint
-- A batch of notifications (notifyAll, server/lib/notifications.ts) sets pillar.notices_batched for its insert and
-- raises one notice per customer itself.
CREATE OR REPLACE TRIGGER user_events_notifications AFTER INSERT OR UPDATE OR DELETE ON notifications
	FOR EACH ROW WHEN (current_setting('pillar.notices_batched', true) IS DISTINCT FROM 'on')
	EXECUTE FUNCTION user_events_from_row('notifications');
--> statement-breakpoint
-- A USDC deposit seen on chain (pending), credited, held or removed by a reorg: the Add money page's list. Its
-- depth changing is not a notice (the page polls while a deposit is pending).
CREATE OR REPLACE TRIGGER user_events_chain_deposits AFTER INSERT OR UPDATE OF status OR DELETE ON chain_deposits
	FOR EACH ROW EXECUTE FUNCTION user_events_from_row('deposits');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_events_users AFTER UPDATE OF frozen_at, status ON users
	FOR EACH ROW WHEN (OLD.frozen_at IS DISTINCT FROM NEW.frozen_at OR OLD.status IS DISTINCT FROM NEW.status)
	EXECUTE FUNCTION user_events_from_user('account');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_events_sessions AFTER DELETE ON sessions
	FOR EACH ROW EXECUTE FUNCTION user_events_wake();
--> statement-breakpoint
-- Rows with two parties (a money request: requester_id and payer_id): both sides' screens named by the trigger's
-- arguments changed.
CREATE OR REPLACE FUNCTION user_events_from_parties()
RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM emit_user_event(NEW.requester_id, TG_ARGV::text[]);
	PERFORM emit_user_event(NEW.payer_id, TG_ARGV::text[]);
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER user_events_money_requests AFTER INSERT OR UPDATE ON money_requests
	FOR EACH ROW EXECUTE FUNCTION user_events_from_parties('requests');
--> statement-breakpoint
-- A payout's hash on the customer's history and receipt changed: an attempt left for the node (the first
-- broadcast, a replacement, a staff speed-up, a cancel), the mined one was found or reorged out, or it went a
-- block deeper (its confirmations, counted on the history). No
-- transfer row changes then, so without these the hash waited for the next notice (the capture, at depth).
-- Deferred to commit, so the counter's lock is the transaction's last: the worker may still lock the wallet
-- after the change (a capture in the same pass), and every writer takes the wallet before the counter.
CREATE OR REPLACE FUNCTION user_events_from_payout()
RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
	v_payout uuid;
BEGIN
	IF TG_TABLE_NAME = 'payouts' THEN
		v_payout := NEW.id;
	ELSE
		v_payout := NEW.payout_id;
	END IF;
	PERFORM emit_user_event(r.user_id, ARRAY['transactions'])
		FROM payouts p JOIN transfer_requests r ON r.id = p.transfer_request_id
		WHERE p.id = v_payout;
	RETURN NULL;
END
$$;
--> statement-breakpoint
-- No CREATE OR REPLACE for a constraint trigger: dropped and made again (this file applies in one transaction).
DROP TRIGGER IF EXISTS user_events_payout_attempts ON payout_attempts;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER user_events_payout_attempts AFTER UPDATE OF first_broadcast_at ON payout_attempts
	DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (OLD.first_broadcast_at IS NULL AND NEW.first_broadcast_at IS NOT NULL)
	EXECUTE FUNCTION user_events_from_payout();
--> statement-breakpoint
DROP TRIGGER IF EXISTS user_events_payouts ON payouts;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER user_events_payouts AFTER UPDATE OF mined_hash, confirmations ON payouts
	DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (OLD.mined_hash IS DISTINCT FROM NEW.mined_hash OR OLD.confirmations IS DISTINCT FROM NEW.confirmations)
	EXECUTE FUNCTION user_events_from_payout();
