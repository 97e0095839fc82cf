-- A transfer request in one round trip and one transaction (decisions 001 and 049): the session, the wallet lock,
-- the idempotency record, every check, the screening of the address, the rule that holds a transfer at once, the
-- writes and the transfer's one event run here, called from server/features/transfers/create-transfer.ts through
-- one named prepared statement. The rules decided in TypeScript arrive decided: the fee, the limits, the New York
-- day, the response body, the payee's name screened in memory; this function orders and applies them under the
-- lock and answers one outcome row the caller maps to its AppError. The rules that read the database are the
-- functions they call (lock_wallet, idempotency_replay, money_out_gate and money_out_limits, shared with payments by
-- $tag; lookalike_recipient, has_second_factor, compliance_hold, place_hold, active_session_user, emit_event), each
-- defined once in this folder.
-- Everything after the commit (the "Transfer requested" mail and its "This wasn't me" link, the monitoring rules
-- that do not block and the filing of every alert, the customer's pushed notice) is the jobs room's, from the
-- transfer.requested event (server/jobs/consumers/).
--
-- One argument, a JSON object (decision 019): its fields and their SQL types are the column list of
-- jsonb_to_record below, and createTransferCall (server/features/transfers/transfer-function.ts) is the zod
-- schema that checks it before it is sent; a field missing here or malformed fails the call.
CREATE OR REPLACE FUNCTION create_transfer_request(p_call jsonb)
RETURNS TABLE (outcome text, status_code integer, response jsonb, detail text, listed jsonb)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
	c record;
	v_wallet_id uuid;
	v_previous_status integer;
	v_previous_response jsonb;
	v_outcome text;
	v_detail text;
	v_lookalike_name text;
	v_run_transfer_id uuid;
	v_list_id uuid;
	v_list_version integer;
	v_listed jsonb;
	v_review text[] := '{}';
	v_device_at timestamptz;
	v_response jsonb;
BEGIN
	SELECT * INTO c FROM jsonb_to_record(p_call) AS x(
		user_id uuid,
		session_id_hash text,
		session_idle_seconds integer,
		session_touch_seconds integer,
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
		under_review_message text,
		sanctions_list_id uuid,
		name_listed boolean,
		files_hits boolean,
		refuse_review boolean,
		blocking_rule jsonb,
		check_lookalike boolean,
		schedule_run_key text
	);
	-- Every field but idempotency_key, recipient_account, schedule_run_key, session_id_hash, sanctions_list_id and
	-- blocking_rule is required. A missing or misspelt one reads as NULL, and a NULL limit or flag would pass the
	-- check it feeds (x >= NULL is not true): refuse the call instead.
	IF num_nulls(c.user_id, c.session_idle_seconds, c.session_touch_seconds, c.request_hash, c.limit_day,
			c.daily_limit_cents, c.daily_count_limit, c.second_factor_ok, c.transfer_id, c.transaction_id, c.hold_id,
			c.amount_cents, c.fee_cents, c.recipient_name, c.purpose, c.category, c.crypto_address, c.description,
			c.created_at, c.response, c.under_review_message, c.name_listed, c.files_hits, c.refuse_review,
			c.check_lookalike) > 0 THEN
		RAISE EXCEPTION 'create_transfer_request: a required field is missing' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- Only a scheduled run (decision 036) moves money without a session: its customer proved the schedule.
	IF c.session_id_hash IS NULL AND c.schedule_run_key IS NULL THEN
		RAISE EXCEPTION 'create_transfer_request: a transfer needs a session or a schedule run'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- The transfer's own event carries the customer's notice (after the commit, through the pushes consumer): the
	-- row triggers on the wallet, the debit and the request add none meanwhile.
	PERFORM pushes_by_caller();

	-- The session is checked here, not only in the server's cache: one ended on another instance a moment ago
	-- moves no money.
	IF c.session_id_hash IS NOT NULL
			AND active_session_user(c.session_id_hash, c.session_idle_seconds) IS DISTINCT FROM c.user_id THEN
		RETURN QUERY SELECT 'session_ended'::text, NULL::integer, NULL::jsonb, NULL::text, NULL::jsonb;
		RETURN;
	END IF;
	-- The payee's name was screened in memory against the list the server knew as active; a newer one (or none)
	-- sends it back to screen again before anything is locked. detail: the active list's "id:version", or NULL.
	SELECT l.id, l.version INTO v_list_id, v_list_version FROM sanctions_lists l WHERE l.is_active;
	IF v_list_id IS DISTINCT FROM c.sanctions_list_id THEN
		RETURN QUERY SELECT 'sanctions_list_changed'::text, NULL::integer, NULL::jsonb,
			CASE WHEN v_list_id IS NOT NULL THEN v_list_id || ':' || v_list_version END, NULL::jsonb;
		RETURN;
	END IF;

	-- Lock the wallet first (opening it if needed): two transfers racing must not both see the same available
	-- balance, daily total or idempotency key. Each statement below takes a fresh snapshot, after the lock.
	v_wallet_id := lock_wallet(c.user_id);

	-- A scheduled run made once already (decision 036): its transfer carries the run's reference for good, while
	-- the run's Idempotency-Key is swept after a week, and the schedule may have been edited since. Before every
	-- check, so a run made before a freeze or a new limit is still found; detail carries the transfer's id.
	IF c.schedule_run_key IS NOT NULL THEN
		SELECT t.id INTO v_run_transfer_id FROM transfer_requests t WHERE t.schedule_run_key = c.schedule_run_key
			AND t.user_id = c.user_id;
		IF FOUND THEN
			RETURN QUERY SELECT 'schedule_run_made'::text, NULL::integer, NULL::jsonb, v_run_transfer_id::text,
				NULL::jsonb;
			RETURN;
		END IF;
	END IF;

	IF c.idempotency_key IS NOT NULL THEN
		SELECT r.outcome, r.status_code, r.response INTO v_outcome, v_previous_status, v_previous_response
			FROM idempotency_replay(c.user_id, c.idempotency_key, c.request_hash) r;
		IF FOUND THEN
			RETURN QUERY SELECT v_outcome, v_previous_status, v_previous_response, NULL::text, NULL::jsonb;
			RETURN;
		END IF;
	END IF;

	-- Frozen, staff, the send-money gate, the customer's own block and the day's count (money_out_gate), before the
	-- second factor, so a refused customer never spends a one-time code.
	SELECT g.outcome, g.detail INTO v_outcome, v_detail FROM money_out_gate(c.user_id, c.limit_day, c.daily_count_limit,
		c.created_at) g;
	IF FOUND THEN
		RETURN QUERY SELECT v_outcome, NULL::integer, NULL::jsonb, v_detail, NULL::jsonb;
		RETURN;
	END IF;

	-- Also before the second factor, so a refused lookalike never spends a one-time code. Skipped once the
	-- customer confirmed the address; detail carries the saved recipient's name.
	IF c.check_lookalike THEN
		SELECT l.name INTO v_lookalike_name FROM lookalike_recipient(c.user_id, c.crypto_address) l;
		IF FOUND THEN
			RETURN QUERY SELECT 'lookalike_address'::text, NULL::integer, NULL::jsonb, v_lookalike_name, NULL::jsonb;
			RETURN;
		END IF;
	END IF;

	IF NOT c.second_factor_ok AND has_second_factor(c.user_id) THEN
		RETURN QUERY SELECT 'second_factor_required'::text, NULL::integer, NULL::jsonb, NULL::text, NULL::jsonb;
		RETURN;
	END IF;

	-- The available balance, the bank's daily limit and the customer's own (money_out_limits).
	SELECT l.outcome, l.detail INTO v_outcome, v_detail FROM money_out_limits(c.user_id, c.limit_day, c.amount_cents,
		c.daily_limit_cents, c.created_at) l;
	IF FOUND THEN
		RETURN QUERY SELECT v_outcome, NULL::integer, NULL::jsonb, v_detail, NULL::jsonb;
		RETURN;
	END IF;

	-- Sanctions screening of the address (exactly, whatever the case, on the list the name was screened against)
	-- and the customer's compliance hold: either, or a listed name, makes the transfer with its hold, waiting under
	-- review; the caller files the hits in this transaction (files_hits), or is sent back to call again in one that
	-- does, before anything is written.
	SELECT jsonb_agg(jsonb_build_object('source', a.source, 'entNum', a.ent_num, 'currency', a.currency,
			'address', a.address, 'addressKey', a.address_key) ORDER BY a.source, a.ent_num)
		INTO v_listed FROM sanctions_addresses a
		WHERE a.list_id = v_list_id AND a.address_key = lower(c.crypto_address);
	IF c.name_listed OR v_listed IS NOT NULL THEN
		v_review := v_review || 'sanctions'::text;
	END IF;
	IF compliance_hold(c.user_id) THEN
		v_review := v_review || 'compliance_hold'::text;
	END IF;
	-- A scheduled run never makes a transfer that would wait under review: the run is skipped and the customer told.
	IF c.refuse_review AND cardinality(v_review) > 0 THEN
		RETURN QUERY SELECT 'under_review'::text, NULL::integer, NULL::jsonb, NULL::text, NULL::jsonb;
		RETURN;
	END IF;
	IF v_listed IS NOT NULL AND NOT c.files_hits THEN
		RETURN QUERY SELECT 'address_listed'::text, NULL::integer, NULL::jsonb, NULL::text, v_listed;
		RETURN;
	END IF;

	-- The monitoring rule that holds money at request time (decision 031's new_device_new_address, blocking by
	-- default; its settings arrive from monitoringConfig(), NULL when it does not block): a device first seen within
	-- device_window_hours, at least established_days after the customer's first device, then a transfer of at least
	-- min_amount_cents to an address the customer paid none within lookback_days, and no alert of this rule within
	-- cooldown_days. The alert itself is filed after the commit by the monitoring consumer, from this decision
	-- (the event's new_device_at); server/features/monitoring/rules.ts states the same rule for the frozen
	-- scenarios and for payments by $tag (decision 054), and blocking-rule.api.test.ts holds the two to the same answers.
	IF c.blocking_rule IS NOT NULL AND c.amount_cents >= (c.blocking_rule ->> 'min_amount_cents')::bigint THEN
		SELECT max(d.created_at) INTO v_device_at FROM known_devices d
			WHERE d.user_id = c.user_id
				AND d.created_at <= c.created_at
				AND d.created_at > c.created_at - make_interval(hours => (c.blocking_rule ->> 'device_window_hours')::int)
				AND d.created_at >= (SELECT min(f.created_at) FROM known_devices f WHERE f.user_id = c.user_id)
					+ make_interval(days => (c.blocking_rule ->> 'established_days')::int);
		IF v_device_at IS NOT NULL AND (
				EXISTS (SELECT 1 FROM monitoring_alerts a WHERE a.user_id = c.user_id
					AND a.rule = 'new_device_new_address'
					AND a.created_at > c.created_at - make_interval(days => (c.blocking_rule ->> 'cooldown_days')::int))
				OR EXISTS (SELECT 1 FROM transfer_requests t WHERE t.user_id = c.user_id
					AND lower(t.crypto_address) = lower(c.crypto_address)
					AND t.created_at >= c.created_at - make_interval(days => (c.blocking_rule ->> 'lookback_days')::int)
					AND t.created_at <= c.created_at)) THEN
			v_device_at := NULL;
		END IF;
		IF v_device_at IS NOT NULL THEN
			v_review := v_review || 'new_device_new_address'::text;
		END IF;
	END IF;
	-- A transfer this rule holds is never committed without its alert (the hold is the alert on the customer's
	-- case: staff release, the payout worker and the next transfer read it). Like a listed address: nothing is
	-- written on the one-call path, and the caller calls again in a transaction that files the alert (files_hits),
	-- which 'created' answers the device's time for (detail).
	IF v_device_at IS NOT NULL AND NOT c.files_hits THEN
		RETURN QUERY SELECT 'alert_held'::text, NULL::integer, NULL::jsonb, NULL::text, NULL::jsonb;
		RETURN;
	END IF;
	v_response := CASE WHEN cardinality(v_review) > 0
		THEN c.response || jsonb_build_object('message', c.under_review_message) ELSE c.response END;

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
			VALUES (c.user_id, c.idempotency_key, c.request_hash, 201, v_response);
	END IF;
	IF c.session_id_hash IS NOT NULL THEN
		PERFORM touch_session(c.session_id_hash, c.session_touch_seconds);
	END IF;
	-- What the consumers need without another read: the mail's fields, the rules' facts, and the screens to tell.
	-- review: why it waits ('sanctions', 'compliance_hold', 'new_device_new_address'), never shown to the customer.
	PERFORM emit_event('transfer.requested', c.user_id, jsonb_build_object(
		'transfer_id', c.transfer_id,
		'amount_cents', c.amount_cents,
		'fee_cents', c.fee_cents,
		'crypto_address', c.crypto_address,
		'recipient_name', c.recipient_name,
		'created_at', c.created_at,
		-- How it started, for the monitoring rules' evidence (decision 054): a schedule's run or the customer.
		'channel', CASE WHEN c.schedule_run_key IS NOT NULL THEN 'schedule' ELSE 'direct' END,
		'review', to_jsonb(v_review),
		'new_device_at', v_device_at,
		'notices', jsonb_build_array(jsonb_build_object('user_id', c.user_id,
			'topics', jsonb_build_array('summary', 'transactions', 'transfers')))));
	RETURN QUERY SELECT 'created'::text, 201, v_response,
		to_char(v_device_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), v_listed;
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
RETURNS TABLE (item integer, outcome text, status_code integer, response jsonb, detail text, listed jsonb)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_call jsonb;
	v_item integer := 0;
BEGIN
	FOR v_call IN SELECT e.value FROM jsonb_array_elements(p_calls) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
		RETURN QUERY SELECT v_item, r.outcome, r.status_code, r.response, r.detail, r.listed
			FROM create_transfer_request(v_call) r;
		v_item := v_item + 1;
	END LOOP;
END;
$$;
