-- Who can be paid at a $tag (decision 035), the one copy of the rule: a customer (no staff role) whose
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
--> statement-breakpoint
-- The name a payer or a requester sees for the other party, enough to recognise and no more: the first two letters
-- of the first name (one when it has two or fewer) and the last name's initial ("Jordan Rivera" → "Jo*** R."). The
-- tag lookup, money requests and blocked requesters read it, and pay_by_tag writes it into the payment's answer.
-- NULL for no one (a party whose account was deleted).
CREATE OR REPLACE FUNCTION mask_name(p_first_name text, p_last_name text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
	SELECT left(f, least(2, greatest(char_length(f) - 1, 1))) || '***'
		|| CASE WHEN l <> '' THEN ' ' || upper(left(l, 1)) || '.' ELSE '' END
	FROM (SELECT btrim(p_first_name) AS f, btrim(p_last_name) AS l) AS n
$$;
