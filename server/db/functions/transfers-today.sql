-- A customer's transfers on one limit day (New York): how many were asked for, and the total that counts against
-- the daily limit (pending, processing and completed). create_transfer_request checks both under the wallet lock;
-- GET /api/transfer/limits reads the same total.
CREATE OR REPLACE FUNCTION transfers_today(p_user_id uuid, p_limit_day text)
RETURNS TABLE (count_today integer, total_today bigint)
LANGUAGE sql STABLE AS $$
	SELECT count(*)::int,
		coalesce(sum(t.amount) FILTER (WHERE t.status IN ('pending', 'processing', 'completed')), 0)::bigint
		FROM transfer_requests t WHERE t.user_id = p_user_id AND t.limit_day = p_limit_day
$$;
