-- What an Idempotency-Key already answered for this customer, the one copy of the rule for the money functions
-- that keep their answers in idempotency_keys (pay_by_tag, create_transfer_request): no row when the key is new;
-- 'replayed' with the first answer when it came with the same request; 'idempotency_mismatch' when it came with
-- another. Read under the payer's wallet lock, so a second request with the
-- same key waits for the first and replays it.
CREATE OR REPLACE FUNCTION idempotency_replay(p_user_id uuid, p_key text, p_request_hash text)
RETURNS TABLE (outcome text, status_code integer, response jsonb)
LANGUAGE sql STABLE AS $$
	SELECT CASE WHEN ik.request_hash = p_request_hash THEN 'replayed' ELSE 'idempotency_mismatch' END,
		CASE WHEN ik.request_hash = p_request_hash THEN ik.status_code END,
		CASE WHEN ik.request_hash = p_request_hash THEN ik.response END
	FROM idempotency_keys ik WHERE ik.user_id = p_user_id AND ik.key = p_key
$$;
