-- Issue 26 item 8, "staff never bank": create_transfer_request (0010, 0014) refuses a customer who holds a staff
-- role, under the wallet lock, as outcome 'staff_account'. Otherwise unchanged; the batch function (0015) calls it.

CREATE OR REPLACE FUNCTION create_transfer_request(
	p_user_id uuid,
	p_idempotency_key text,
	p_request_hash text,
	p_limit_day text,
	p_daily_limit bigint,
	p_daily_count_limit integer,
	p_second_factor_ok boolean,
	p_transfer_id uuid,
	p_transaction_id uuid,
	p_hold_id uuid,
	p_amount bigint,
	p_fee bigint,
	p_recipient_name text,
	p_recipient_account text,
	p_purpose text,
	p_category text,
	p_crypto_address text,
	p_description text,
	p_now timestamptz,
	p_response jsonb,
	p_freeze_token_hash text,
	p_freeze_ttl_seconds integer,
	p_mail_to text,
	p_mail_subject text,
	p_mail_text text,
	p_mail_html text,
	p_mail_kind text,
	p_check_lookalike boolean,
	p_address_lower text,
	p_address_first text,
	p_address_last text
) RETURNS TABLE (outcome text, status_code integer, response jsonb, detail_cents text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
	v_wallet_id uuid;
	v_balance bigint;
	v_held bigint;
	v_previous_hash text;
	v_previous_status integer;
	v_previous_response jsonb;
	v_used_today bigint;
	v_count_today integer;
BEGIN
	-- Lock the wallet first (opening it if needed): two transfers racing must not both see the same available
	-- balance, daily total or idempotency key. Each statement below takes a fresh snapshot, after the lock.
	SELECT a.id, a.balance, a.held INTO v_wallet_id, v_balance, v_held
		FROM ledger_accounts a WHERE a.user_id = p_user_id FOR UPDATE;
	IF NOT FOUND THEN
		INSERT INTO ledger_accounts (code, kind, user_id) VALUES ('wallet:' || p_user_id, 'wallet', p_user_id)
			ON CONFLICT (code) DO NOTHING;
		SELECT a.id, a.balance, a.held INTO v_wallet_id, v_balance, v_held
			FROM ledger_accounts a WHERE a.user_id = p_user_id FOR UPDATE;
	END IF;

	IF p_idempotency_key IS NOT NULL THEN
		SELECT ik.request_hash, ik.status_code, ik.response INTO v_previous_hash, v_previous_status, v_previous_response
			FROM idempotency_keys ik WHERE ik.user_id = p_user_id AND ik.key = p_idempotency_key;
		IF FOUND THEN
			IF v_previous_hash <> p_request_hash THEN
				RETURN QUERY SELECT 'idempotency_mismatch'::text, NULL::integer, NULL::jsonb, NULL::text;
			ELSE
				RETURN QUERY SELECT 'replayed'::text, v_previous_status, v_previous_response, NULL::text;
			END IF;
			RETURN;
		END IF;
	END IF;

	IF EXISTS (SELECT 1 FROM users u WHERE u.id = p_user_id AND u.frozen_at IS NOT NULL) THEN
		RETURN QUERY SELECT 'account_frozen'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	-- Staff never bank (issue 26 item 8). Read after the wallet lock, which a staff grant also takes: a grant
	-- committed first is seen here, and one that comes later sees this transfer's hold and refuses.
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = p_user_id AND cardinality(u.staff_roles) > 0) THEN
		RETURN QUERY SELECT 'staff_account'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	IF NOT can_send_money(p_user_id) THEN
		RETURN QUERY SELECT 'setup_incomplete'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	-- Checked before the second factor, so a capped customer never spends a one-time code on a refusal.
	SELECT d.count_today, d.total_today INTO v_count_today, v_used_today
		FROM transfers_today(p_user_id, p_limit_day) d;
	IF v_count_today >= p_daily_count_limit THEN
		RETURN QUERY SELECT 'daily_count_limit'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	-- Also before the second factor, so a refused lookalike never spends a one-time code. An address that imitates
	-- a saved recipient's (same first and last characters of its core, another address, and not itself saved)
	-- needs the customer's explicit confirmation; detail_cents carries the saved recipient's name. Mirrors
	-- lookalikeRecipientSql (server/features/recipients/check-address.ts): change them together.
	IF p_check_lookalike THEN
		RETURN QUERY SELECT 'lookalike_address'::text, NULL::integer, NULL::jsonb, r.name
			FROM saved_recipients r
			WHERE r.user_id = p_user_id
				AND lower(r.address) <> p_address_lower
				AND left(lower(regexp_replace(r.address, '^0x', '')), length(p_address_first)) = p_address_first
				AND right(lower(r.address), length(p_address_last)) = p_address_last
				AND NOT EXISTS (SELECT 1 FROM saved_recipients s
					WHERE s.user_id = p_user_id AND lower(s.address) = p_address_lower)
			ORDER BY r.created_at, r.id
			LIMIT 1;
		IF FOUND THEN
			RETURN;
		END IF;
	END IF;

	IF NOT p_second_factor_ok AND (
		EXISTS (SELECT 1 FROM totp_factors f WHERE f.user_id = p_user_id AND f.confirmed_at IS NOT NULL)
		OR EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = p_user_id)
	) THEN
		RETURN QUERY SELECT 'second_factor_required'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	IF p_amount > v_balance - v_held THEN
		RETURN QUERY SELECT 'insufficient_funds'::text, NULL::integer, NULL::jsonb, (v_balance - v_held)::text;
		RETURN;
	END IF;

	IF v_used_today + p_amount > p_daily_limit THEN
		RETURN QUERY SELECT 'daily_limit'::text, NULL::integer, NULL::jsonb, v_used_today::text;
		RETURN;
	END IF;

	PERFORM place_hold(p_hold_id, v_wallet_id, p_amount, 'transfer_request', p_transfer_id::text);
	INSERT INTO transactions
		(id, user_id, type, amount, fee, net_amount, description, category, status, source_type, source_id, created_at)
		VALUES (p_transaction_id, p_user_id, 'debit', p_amount, p_fee, p_amount - p_fee, p_description, p_category,
			'pending', 'transfer_request', p_transfer_id, p_now);
	INSERT INTO transfer_requests
		(id, user_id, amount, fee, net_amount, recipient_name, recipient_account, recipient_routing, purpose,
		 category, payment_method, crypto_address, status, hold_id, transaction_id, limit_day, created_at, updated_at)
		VALUES (p_transfer_id, p_user_id, p_amount, p_fee, p_amount - p_fee, p_recipient_name, p_recipient_account,
			'CRYPTO', p_purpose, p_category, 'crypto', p_crypto_address, 'pending', p_hold_id, p_transaction_id,
			p_limit_day, p_now, p_now);
	IF p_idempotency_key IS NOT NULL THEN
		INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response)
			VALUES (p_user_id, p_idempotency_key, p_request_hash, 201, p_response);
	END IF;
	INSERT INTO freeze_links (user_id, token_hash, reason, expires_at)
		VALUES (p_user_id, p_freeze_token_hash, 'transfer', now() + make_interval(secs => p_freeze_ttl_seconds));
	INSERT INTO mail_outbox (to_address, subject, text_body, html_body, kind)
		VALUES (p_mail_to, p_mail_subject, p_mail_text, p_mail_html, p_mail_kind);
	RETURN QUERY SELECT 'created'::text, 201, p_response, NULL::text;
END;
$$;
