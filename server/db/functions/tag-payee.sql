-- Who can be paid at a $tag (issue 32 §4, decision 035), the one copy of the rule: a customer (no staff role) whose
-- account is open (the send-money gate, can_send_money) and not frozen. No row otherwise, whatever the reason, so
-- a tag that does not exist answers like one that cannot be paid. Read by the name confirmation
-- (GET /api/transfer/tag/:tag) and again by the payment after both wallets are locked.
CREATE OR REPLACE FUNCTION tag_payee(p_tag text)
RETURNS TABLE (id uuid, pillar_tag text, first_name text, last_name text)
LANGUAGE sql STABLE AS $$
	SELECT u.id, u.pillar_tag, u.first_name, u.last_name
		FROM users u
		WHERE lower(u.pillar_tag) = lower(p_tag)
			AND u.frozen_at IS NULL
			AND cardinality(u.staff_roles) = 0
			AND can_send_money(u.id)
$$;
