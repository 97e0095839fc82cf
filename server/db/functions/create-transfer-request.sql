-- A transfer request in one round trip (decision 001): the wallet lock, the idempotency record, every check and
-- every write run here, called from server/features/transfers/create-transfer.ts through one named prepared
-- statement. The rules decided in TypeScript arrive decided: the fee, the limits, the New York day, the response
-- body and the rendered mail; this function orders and applies them under the lock and answers one outcome row
-- the caller maps to its AppError. The rules that read the database are the functions they call (money_out_gate and
-- money_out_limits, shared with payments by $tag; lookalike_recipient, has_second_factor, place_hold), each
-- defined once in this folder.
--
-- One argument, a JSON object (decision 019): its fields and their SQL types are the column list of
-- jsonb_to_record below, and createTransferCall (server/features/transfers/transfer-function.ts) is the zod
-- schema that checks it before it is sent; a field missing here or malformed fails the call.
CREATE OR REPLACE FUNCTION create_transfer_request(p_call jsonb)
RETURNS TABLE (outcome text, status_code integer, response jsonb, detail text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
	c record;
	v_wallet_id uuid;
	v_balance bigint;
	v_held bigint;
	v_previous_hash text;
	v_previous_status integer;
	v_previous_response jsonb;
	v_outcome text;
	v_detail text;
	v_lookalike_name text;
	v_run_transfer_id uuid;
BEGIN
	SELECT * INTO c FROM jsonb_to_record(p_call) AS x(
		user_id uuid,
		idempotency_key text,
		request_hash text,
		limit_day text,
		daily_limit_cents bigint,
		daily_count_limit integer,
		second_factor_ok boolean,
		transfer_id uuid,
		transaction_id uuid,
		hold_id uuid,
		amount_cents bigint,
		fee_cents bigint,
		recipient_name text,
		recipient_account text,
		purpose text,
		category text,
		crypto_address text,
		description text,
		created_at timestamptz,
		response jsonb,
		freeze_token_hash text,
		freeze_ttl_seconds integer,
		mail_to text,
		mail_subject text,
		mail_text text,
		mail_html text,
		mail_kind text,
		check_lookalike boolean,
		schedule_run_key text
	);
	-- Every field but idempotency_key, recipient_account and schedule_run_key is required. A missing or misspelt one reads as NULL,
	-- and a NULL limit or flag would pass the check it feeds (x >= NULL is not true): refuse the call instead.
	IF num_nulls(c.user_id, c.request_hash, c.limit_day, c.daily_limit_cents, c.daily_count_limit,
			c.second_factor_ok, c.transfer_id, c.transaction_id, c.hold_id, c.amount_cents, c.fee_cents,
			c.recipient_name, c.purpose, c.category, c.crypto_address, c.description, c.created_at, c.response,
			c.freeze_token_hash, c.freeze_ttl_seconds, c.mail_to, c.mail_subject, c.mail_text, c.mail_html,
			c.mail_kind, c.check_lookalike) > 0 THEN
		RAISE EXCEPTION 'create_transfer_request: a required field is missing' USING ERRCODE = 'null_value_not_allowed';
	END IF;

	-- Lock the wallet first (opening it if needed): two transfers racing must not both see the same available
	-- balance, daily total or idempotency key. Each statement below takes a fresh snapshot, after the lock.
	SELECT a.id, a.balance, a.held INTO v_wallet_id, v_balance, v_held
		FROM ledger_accounts a WHERE a.user_id = c.user_id FOR UPDATE;
	IF NOT FOUND THEN
		INSERT INTO ledger_accounts (code, kind, user_id) VALUES ('wallet:' || c.user_id, 'wallet', c.user_id)
			ON CONFLICT (code) DO NOTHING;
		SELECT a.id, a.balance, a.held INTO v_wallet_id, v_balance, v_held
			FROM ledger_accounts a WHERE a.user_id = c.user_id FOR UPDATE;
	END IF;

	-- A scheduled run made once already (decision 036): its transfer carries the run's reference for good, while
	-- the run's Idempotency-Key is swept after a week, and the schedule may have been edited since. Before every
	-- check, so a run made before a freeze or a new limit is still found; detail carries the transfer's id.
	IF c.schedule_run_key IS NOT NULL THEN
		SELECT t.id INTO v_run_transfer_id FROM transfer_requests t WHERE t.schedule_run_key = c.schedule_run_key
			AND t.user_id = c.user_id;
		IF FOUND THEN
			RETURN QUERY SELECT 'schedule_run_made'::text, NULL::integer, NULL::jsonb, v_run_transfer_id::text;
			RETURN;
		END IF;
	END IF;

	IF c.idempotency_key IS NOT NULL THEN
		SELECT ik.request_hash, ik.status_code, ik.response INTO v_previous_hash, v_previous_status, v_previous_response
			FROM idempotency_keys ik WHERE ik.user_id = c.user_id AND ik.key = c.idempotency_key;
		IF FOUND THEN
			IF v_previous_hash <> c.request_hash THEN
				RETURN QUERY SELECT 'idempotency_mismatch'::text, NULL::integer, NULL::jsonb, NULL::text;
			ELSE
				RETURN QUERY SELECT 'replayed'::text, v_previous_status, v_previous_response, NULL::text;
			END IF;
			RETURN;
		END IF;
	END IF;

	-- Frozen, staff, the send-money gate, the customer's own block and the day's count (money_out_gate), before the
	-- second factor, so a refused customer never spends a one-time code.
	SELECT g.outcome, g.detail INTO v_outcome, v_detail FROM money_out_gate(c.user_id, c.limit_day, c.daily_count_limit,
		c.created_at) g;
	IF FOUND THEN
		RETURN QUERY SELECT v_outcome, NULL::integer, NULL::jsonb, v_detail;
		RETURN;
	END IF;

	-- Also before the second factor, so a refused lookalike never spends a one-time code. Skipped once the
	-- customer confirmed the address; detail carries the saved recipient's name.
	IF c.check_lookalike THEN
		SELECT l.name INTO v_lookalike_name FROM lookalike_recipient(c.user_id, c.crypto_address) l;
		IF FOUND THEN
			RETURN QUERY SELECT 'lookalike_address'::text, NULL::integer, NULL::jsonb, v_lookalike_name;
			RETURN;
		END IF;
	END IF;

	IF NOT c.second_factor_ok AND has_second_factor(c.user_id) THEN
		RETURN QUERY SELECT 'second_factor_required'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	-- The available balance, the bank's daily limit and the customer's own (money_out_limits).
	SELECT l.outcome, l.detail INTO v_outcome, v_detail FROM money_out_limits(c.user_id, c.limit_day, c.amount_cents,
		c.daily_limit_cents, c.created_at) l;
	IF FOUND THEN
		RETURN QUERY SELECT v_outcome, NULL::integer, NULL::jsonb, v_detail;
		RETURN;
	END IF;

	PERFORM place_hold(c.hold_id, v_wallet_id, c.amount_cents, 'transfer_request', c.transfer_id::text);
	INSERT INTO transactions
		(id, user_id, type, amount, fee, net_amount, description, category, status, source_type, source_id, created_at)
		VALUES (c.transaction_id, c.user_id, 'debit', c.amount_cents, c.fee_cents, c.amount_cents - c.fee_cents,
			c.description, c.category, 'pending', 'transfer_request', c.transfer_id, c.created_at);
	INSERT INTO transfer_requests
		(id, user_id, amount, fee, net_amount, recipient_name, recipient_account, recipient_routing, purpose,
		 category, payment_method, crypto_address, status, hold_id, transaction_id, limit_day, schedule_run_key,
		 created_at, updated_at)
		VALUES (c.transfer_id, c.user_id, c.amount_cents, c.fee_cents, c.amount_cents - c.fee_cents, c.recipient_name,
			c.recipient_account, 'CRYPTO', c.purpose, c.category, 'crypto', c.crypto_address, 'pending', c.hold_id,
			c.transaction_id, c.limit_day, c.schedule_run_key, c.created_at, c.created_at);
	IF c.idempotency_key IS NOT NULL THEN
		INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response)
			VALUES (c.user_id, c.idempotency_key, c.request_hash, 201, c.response);
	END IF;
	INSERT INTO freeze_links (user_id, token_hash, reason, expires_at)
		VALUES (c.user_id, c.freeze_token_hash, 'transfer', now() + make_interval(secs => c.freeze_ttl_seconds));
	INSERT INTO mail_outbox (to_address, subject, text_body, html_body, kind)
		VALUES (c.mail_to, c.mail_subject, c.mail_text, c.mail_html, c.mail_kind);
	RETURN QUERY SELECT 'created'::text, 201, c.response, NULL::text;
END;
$$;
--> statement-breakpoint

-- Several transfer requests of one customer in one call, one lock and one commit (decision 012). The server
-- gathers the requests that arrive for a wallet while its previous call is still running
-- (createTransferOnWallet, server/features/transfers/transfer-function.ts) and sends them here in arrival order: p_calls is a JSON array of
-- create_transfer_request's argument objects. Each runs exactly as a call of its own would, after the ones before
-- it in the same transaction, so it sees their holds, totals and idempotency keys. One row per element comes
-- back, numbered from 0. An error in any element rolls back all of them; the server then runs each alone.
CREATE OR REPLACE FUNCTION create_transfer_requests(p_calls jsonb)
RETURNS TABLE (item integer, outcome text, status_code integer, response jsonb, detail text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_call jsonb;
	v_item integer := 0;
BEGIN
	FOR v_call IN SELECT e.value FROM jsonb_array_elements(p_calls) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
		RETURN QUERY SELECT v_item, r.outcome, r.status_code, r.response, r.detail
			FROM create_transfer_request(v_call) r;
		v_item := v_item + 1;
	END LOOP;
END;
$$;
