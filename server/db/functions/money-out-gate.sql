-- The checks every money out of a wallet passes, the one copy of them for transfer requests
-- (create_transfer_request) and payments by $tag (pay_by_tag): the caller has locked the payer's wallet, so
-- each reads a snapshot taken after the lock. No row: the check passes; one row: the refusal, whose outcome is its
-- reason's name (contract/error-reasons.ts) and whose detail the caller maps into the message.

-- Who may send at all, checked before a second factor is spent: not frozen, not staff, the send-money gate open,
-- not blocked by the customer's own switch (detail: the cooldown's end, or NULL while it is on), and under the
-- day's count of requests. The customer's "Block crypto sends" covers money leaving the bank as USDC
-- (p_leaves_bank: transfer requests, their schedules); a payment by $tag or of a money request stays inside the
-- bank and passes it (decision 047): the customer's own daily limit is what bounds those.
CREATE OR REPLACE FUNCTION money_out_gate(
	p_user_id uuid,
	p_limit_day text,
	p_count_limit integer,
	p_at timestamptz,
	p_leaves_bank boolean DEFAULT true
) RETURNS TABLE (outcome text, detail text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
	v_blocked boolean;
	v_until timestamptz;
BEGIN
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = p_user_id AND u.frozen_at IS NOT NULL) THEN
		RETURN QUERY SELECT 'account_frozen'::text, NULL::text;
		RETURN;
	END IF;
	-- Staff never bank (docs/architecture.md, "Staff roles"). A staff grant takes the wallet lock too: one committed first is seen.
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = p_user_id AND cardinality(u.staff_roles) > 0) THEN
		RETURN QUERY SELECT 'staff_account'::text, NULL::text;
		RETURN;
	END IF;
	-- Closed (decision 059): said as such, before the gate it also closes would call it an unfinished setup.
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = p_user_id AND u.closed_at IS NOT NULL) THEN
		RETURN QUERY SELECT 'account_closed'::text, NULL::text;
		RETURN;
	END IF;
	IF NOT can_send_money(p_user_id) THEN
		RETURN QUERY SELECT 'setup_incomplete'::text, NULL::text;
		RETURN;
	END IF;
	SELECT s.sends_blocked, s.blocked_until INTO v_blocked, v_until FROM self_limits_at(p_user_id, p_at) s;
	IF v_blocked AND p_leaves_bank THEN
		RETURN QUERY SELECT 'sends_blocked'::text, to_char(v_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
		RETURN;
	END IF;
	IF (SELECT d.count_today FROM transfers_today(p_user_id, p_limit_day) d) >= p_count_limit THEN
		RETURN QUERY SELECT 'daily_count_limit'::text, NULL::text;
		RETURN;
	END IF;
END;
$$;
--> statement-breakpoint

-- Whether this amount may leave now: the available balance (detail: the available cents), the bank's daily limit
-- (detail: today's counted total) and the customer's own daily limit in force at p_at (detail: "limit:total").
CREATE OR REPLACE FUNCTION money_out_limits(
	p_user_id uuid,
	p_limit_day text,
	p_amount bigint,
	p_bank_limit bigint,
	p_at timestamptz
) RETURNS TABLE (outcome text, detail text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
	v_available bigint;
	v_used bigint;
	v_personal bigint;
BEGIN
	SELECT a.balance - a.held INTO v_available FROM ledger_accounts a WHERE a.user_id = p_user_id;
	IF p_amount > coalesce(v_available, 0) THEN
		RETURN QUERY SELECT 'insufficient_funds'::text, coalesce(v_available, 0)::text;
		RETURN;
	END IF;
	SELECT d.total_today INTO v_used FROM transfers_today(p_user_id, p_limit_day) d;
	IF v_used + p_amount > p_bank_limit THEN
		RETURN QUERY SELECT 'daily_limit'::text, v_used::text;
		RETURN;
	END IF;
	SELECT s.daily_limit_cents INTO v_personal FROM self_limits_at(p_user_id, p_at) s;
	IF v_personal IS NOT NULL AND v_used + p_amount > v_personal THEN
		RETURN QUERY SELECT 'personal_daily_limit'::text, v_personal || ':' || v_used;
		RETURN;
	END IF;
END;
$$;
