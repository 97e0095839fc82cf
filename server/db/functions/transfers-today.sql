-- A customer's money out on one limit day (New York): how many transfer requests and payments by $tag were asked
-- for, and the total that counts against the daily limits (requests pending, processing and completed; payments
-- by $tag, which settle at once). money_out_gate and money_out_limits check both under the wallet lock;
-- GET /api/transfer/limits reads the same total.
CREATE OR REPLACE FUNCTION transfers_today(p_user_id uuid, p_limit_day text)
RETURNS TABLE (count_today integer, total_today bigint)
LANGUAGE sql STABLE AS $$
	WITH requests AS (
		SELECT count(*)::int AS n,
			coalesce(sum(t.amount) FILTER (WHERE t.status IN ('pending', 'processing', 'completed')), 0)::bigint AS total
			FROM transfer_requests t WHERE t.user_id = p_user_id AND t.limit_day = p_limit_day
	), payments AS (
		SELECT count(*)::int AS n, coalesce(sum(p.amount), 0)::bigint AS total
			FROM tag_payments p WHERE p.payer_id = p_user_id AND p.limit_day = p_limit_day
	)
	SELECT r.n + p.n, r.total + p.total FROM requests r, payments p
$$;
