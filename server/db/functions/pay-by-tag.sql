-- A payment to another customer by $tag (decision 035), or a money request paid (decision 037), in one round trip
-- (decision 050): the session, the locks, the idempotency record, every check and every write run here,
-- called from server/features/tag-payments/pay-by-tag.ts through one named prepared statement. Wallet → wallet in one
-- journal entry, settled at once, no fee. The rules that read the database are the functions they call (tag_payee,
-- money_out_gate and money_out_limits shared with transfer requests, idempotency_replay, compliance_hold,
-- has_second_factor, session_stepped_up, lock_wallet), each defined once in this folder; what TypeScript decides (the tag's shape, the amount, the
-- New York day, the limits, the answer's words) arrives decided. One outcome row answers; the caller maps it to its
-- AppError. What follows the payment (both parties' notifications, the requester's e-mail, the pushed notices) is
-- the one event it writes, consumed after the commit (server/jobs/consumers/tag-payments.ts).
--
-- One argument, a JSON object (decision 019): its fields and their SQL types are the column list of jsonb_to_record
-- below, and payByTagCall (server/features/tag-payments/pay-by-tag-function.ts) is the zod schema that checks it before
-- it is sent; a field missing here or malformed fails the call.
CREATE OR REPLACE FUNCTION pay_by_tag(p_call jsonb)
RETURNS TABLE (outcome text, status_code integer, response jsonb, detail text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
	c record;
	v_tag text;
	v_seen uuid;
	v_party uuid;
	v_wallet uuid;
	v_payer_wallet uuid;
	v_payee_wallet uuid;
	v_requester_id uuid;
	v_request_status text;
	v_amount bigint;
	v_note text;
	v_previous_status integer;
	v_previous_response jsonb;
	v_outcome text;
	v_detail text;
	v_payer_tag text;
	v_payee record;
	v_payee_tag text;
	v_entry_id uuid;
	v_response jsonb;
	v_topics text[];
BEGIN
	SELECT * INTO c FROM jsonb_to_record(p_call) AS x(
		session_id_hash text,
		session_idle_seconds integer,
		session_touch_seconds integer,
		user_id uuid,
		idempotency_key text,
		request_hash text,
		tag text,
		amount_cents bigint,
		note text,
		money_request_id uuid,
		limit_day text,
		daily_limit_cents bigint,
		daily_count_limit integer,
		second_factor_ok boolean,
		payment_id uuid,
		payer_transaction_id uuid,
		payee_transaction_id uuid,
		created_at timestamptz,
		message text
	);
	-- A payment by tag names its amount (its tag and note may be NULL: no tag at all, no note); a request paid names
	-- only the request, whose amount, note and requester are read here. Everything else is required: a missing or
	-- misspelt field reads as NULL, and a NULL limit or flag would pass the check it feeds.
	IF num_nulls(c.session_id_hash, c.session_idle_seconds, c.session_touch_seconds, c.user_id, c.idempotency_key, c.request_hash,
			c.limit_day, c.daily_limit_cents, c.daily_count_limit, c.second_factor_ok, c.payment_id,
			c.payer_transaction_id, c.payee_transaction_id, c.created_at, c.message) > 0
		OR (c.money_request_id IS NULL) = (c.amount_cents IS NULL)
		OR (c.money_request_id IS NOT NULL AND num_nonnulls(c.tag, c.note) > 0) THEN
		RAISE EXCEPTION 'pay_by_tag: a required field is missing' USING ERRCODE = 'null_value_not_allowed';
	END IF;

	-- The session, here under the call: one ended a moment ago on another instance, whose cache still holds it,
	-- moves no money.
	IF active_session_user(c.session_id_hash, c.session_idle_seconds) IS DISTINCT FROM c.user_id THEN
		RETURN QUERY SELECT 'session_expired'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	-- This payment's notices travel in its event: the row triggers of what it writes add none (event-log.sql).
	PERFORM pushes_by_caller();

	IF c.money_request_id IS NULL THEN
		v_tag := c.tag;
	ELSE
		-- Another customer's request, or one withheld from this payer (they blocked its requester): the same 404,
		-- before anything is locked. The payment goes to the requester's tag as it is now; a requester whose account
		-- is gone has none, answered like any tag that cannot be paid.
		SELECT u.pillar_tag INTO v_tag FROM money_requests r LEFT JOIN users u ON u.id = r.requester_id
			WHERE r.id = c.money_request_id AND r.payer_id = c.user_id AND NOT r.withheld;
		IF NOT FOUND THEN
			RETURN QUERY SELECT 'request_not_found'::text, NULL::integer, NULL::jsonb, NULL::text;
			RETURN;
		END IF;
	END IF;

	-- Which wallets to lock: the payee as the tag names them now, checked again under the locks. Both in user id
	-- order, as every writer of two parties takes them (money requests, their blocks): two customers paying each
	-- other at once wait for each other instead of deadlocking. Each statement below reads a snapshot taken after.
	IF v_tag IS NOT NULL THEN
		SELECT p.id INTO v_seen FROM tag_payee(v_tag) p;
	END IF;
	FOR v_party IN SELECT DISTINCT u FROM unnest(ARRAY[c.user_id, v_seen]) AS u WHERE u IS NOT NULL ORDER BY u LOOP
		v_wallet := lock_wallet(v_party);
		IF v_party = c.user_id THEN
			v_payer_wallet := v_wallet;
		ELSE
			v_payee_wallet := v_wallet;
		END IF;
	END LOOP;

	SELECT i.outcome, i.status_code, i.response INTO v_outcome, v_previous_status, v_previous_response
		FROM idempotency_replay(c.user_id, c.idempotency_key, c.request_hash) i;
	IF FOUND THEN
		RETURN QUERY SELECT v_outcome, v_previous_status, v_previous_response, NULL::text;
		RETURN;
	END IF;

	IF c.money_request_id IS NULL THEN
		v_amount := c.amount_cents;
		v_note := c.note;
	ELSE
		-- Locked after both wallets and checked before anything else: a paid request answers "already paid",
		-- whatever else changed; detail carries its state.
		SELECT r.requester_id, r.status, r.amount, r.note INTO v_requester_id, v_request_status, v_amount, v_note
			FROM money_requests r WHERE r.id = c.money_request_id AND r.payer_id = c.user_id FOR UPDATE;
		IF NOT FOUND THEN
			RETURN QUERY SELECT 'request_not_found'::text, NULL::integer, NULL::jsonb, NULL::text;
			RETURN;
		END IF;
		IF v_request_status <> 'open' THEN
			RETURN QUERY SELECT 'request_closed'::text, NULL::integer, NULL::jsonb, v_request_status;
			RETURN;
		END IF;
		IF v_seen IS DISTINCT FROM v_requester_id THEN
			v_tag := NULL;
		END IF;
	END IF;

	-- Frozen, staff, the send-money gate and the day's count, before the second factor, so a refused customer never
	-- spends a one-time code. Inside the bank: the customer's "Block crypto sends" does not apply (decision 047),
	-- their own daily limit does (money_out_limits below).
	SELECT g.outcome, g.detail INTO v_outcome, v_detail
		FROM money_out_gate(c.user_id, c.limit_day, c.daily_count_limit, c.created_at, p_leaves_bank => false) g;
	IF FOUND THEN
		RETURN QUERY SELECT v_outcome, NULL::integer, NULL::jsonb, v_detail;
		RETURN;
	END IF;

	IF v_tag IS NULL THEN
		RETURN QUERY SELECT 'tag_unavailable'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	SELECT u.pillar_tag INTO v_payer_tag FROM users u WHERE u.id = c.user_id;
	IF lower(v_payer_tag) = lower(v_tag) THEN
		RETURN QUERY SELECT 'self_payment'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	SELECT p.id, p.pillar_tag, p.first_name, p.last_name INTO v_payee FROM tag_payee(v_tag) p;
	IF NOT FOUND OR v_payee.id IS DISTINCT FROM v_seen THEN
		RETURN QUERY SELECT 'tag_unavailable'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	-- A customer under a compliance case neither sends nor receives this way; the payer hears a neutral answer.
	IF compliance_hold(c.user_id) OR compliance_hold(v_payee.id) THEN
		RETURN QUERY SELECT 'compliance_hold'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	-- With a factor enrolled: a one-time code spent in this transaction (second_factor_ok, the caller's second
	-- call) or this session's fresh step-up (a passkey proves one through /api/auth/step-up).
	IF NOT c.second_factor_ok AND has_second_factor(c.user_id)
		AND NOT session_stepped_up(c.session_id_hash, c.user_id) THEN
		RETURN QUERY SELECT 'second_factor_required'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	-- The available balance, the bank's daily limit and the customer's own, these payments counted by
	-- transfers_today.
	SELECT l.outcome, l.detail INTO v_outcome, v_detail
		FROM money_out_limits(c.user_id, c.limit_day, v_amount, c.daily_limit_cents, c.created_at) l;
	IF FOUND THEN
		RETURN QUERY SELECT v_outcome, NULL::integer, NULL::jsonb, v_detail;
		RETURN;
	END IF;

	-- The entry and both cached balances (the ledger's rules, server/lib/ledger.ts): the wallet CHECKs refuse an
	-- overdraft and a wallet past its cap, failing the whole call.
	v_payer_tag := '$' || v_payer_tag;
	v_payee_tag := '$' || v_payee.pillar_tag;
	INSERT INTO journal_entries (kind, description, reference_type, reference_id, actor_id)
		VALUES ('tag_payment', 'Payment from ' || v_payer_tag || ' to ' || v_payee_tag, 'tag_payment',
			c.payment_id::text, c.user_id)
		RETURNING id INTO v_entry_id;
	INSERT INTO postings (entry_id, account_id, amount)
		VALUES (v_entry_id, v_payer_wallet, -v_amount), (v_entry_id, v_payee_wallet, v_amount);
	UPDATE ledger_accounts a SET balance = a.balance + CASE WHEN a.id = v_payer_wallet THEN -v_amount ELSE v_amount END
		WHERE a.id IN (v_payer_wallet, v_payee_wallet);
	-- Both histories and statements name the other party's tag, and the note after it.
	INSERT INTO transactions
		(id, user_id, type, amount, fee, net_amount, description, category, status, source_type, source_id, entry_id,
		 created_at, updated_at)
		VALUES
		(c.payer_transaction_id, c.user_id, 'debit', v_amount, 0, v_amount,
			'Payment to ' || v_payee_tag || coalesce(': ' || v_note, ''), 'other', 'completed', 'tag_payment',
			c.payment_id, v_entry_id, c.created_at, c.created_at),
		(c.payee_transaction_id, v_payee.id, 'credit', v_amount, 0, v_amount,
			'Payment from ' || v_payer_tag || coalesce(': ' || v_note, ''), 'other', 'completed', 'tag_payment',
			c.payment_id, v_entry_id, c.created_at, c.created_at);
	INSERT INTO tag_payments
		(id, payer_id, payee_id, payer_tag, payee_tag, amount, note, limit_day, entry_id, payer_transaction_id,
		 payee_transaction_id, created_at)
		VALUES (c.payment_id, c.user_id, v_payee.id, v_payer_tag, v_payee_tag, v_amount, v_note, c.limit_day,
			v_entry_id, c.payer_transaction_id, c.payee_transaction_id, c.created_at);
	IF c.money_request_id IS NOT NULL THEN
		UPDATE money_requests SET status = 'paid', tag_payment_id = c.payment_id, decided_at = c.created_at
			WHERE id = c.money_request_id;
	END IF;

	-- The answer as it is kept for a replay: the amount in cents (the caller writes it out in dollars, as for a
	-- replay), the payee as shown before confirming, the instant as the caller sent it.
	v_response := jsonb_build_object('message', c.message, 'payment', jsonb_build_object(
		'id', c.payment_id, 'amountCents', v_amount, 'toTag', v_payee_tag,
		'toName', mask_name(v_payee.first_name, v_payee.last_name), 'note', v_note,
		'createdAt', p_call->>'created_at'));
	INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response)
		VALUES (c.user_id, c.idempotency_key, c.request_hash, 201, v_response);
	-- The route trusts its cached session because this call checks it: its activity is recorded here.
	PERFORM touch_session(c.session_id_hash, c.session_touch_seconds);

	-- The screens of both parties that the triggers named for these writes: their balances and histories, and
	-- their requests when one was paid.
	v_topics := CASE WHEN c.money_request_id IS NULL THEN ARRAY['summary', 'transactions']
		ELSE ARRAY['requests', 'summary', 'transactions'] END;
	PERFORM emit_event('tag_payment.made', c.user_id, jsonb_build_object(
		'payment_id', c.payment_id, 'payer_id', c.user_id, 'payee_id', v_payee.id, 'amount_cents', v_amount,
		'payer_tag', v_payer_tag, 'payee_tag', v_payee_tag, 'money_request_id', c.money_request_id,
		'notices', jsonb_build_array(
			jsonb_build_object('user_id', c.user_id, 'topics', v_topics),
			jsonb_build_object('user_id', v_payee.id, 'topics', v_topics))));
	RETURN QUERY SELECT 'paid'::text, 201, v_response, NULL::text;
END;
$$;
