-- The customer's saved recipient whose address this one imitates, the one copy of the rule: the same first and
-- last 4 characters of the address's core (lower-cased, without Ethereum's `0x`: every such address starts with
-- it, so the 4 compared are the ones after it) but another address. None when this very address is saved: the
-- customer vouched for it by saving it. The oldest such recipient when several match. Read by the review step
-- (GET /api/recipients/address-check), the passkey challenge for a transfer, and create_transfer_request, which
-- refuses an unconfirmed lookalike under the wallet lock.
CREATE OR REPLACE FUNCTION lookalike_recipient(p_user_id uuid, p_address text)
RETURNS TABLE (id uuid, name text, address text)
LANGUAGE sql STABLE AS $$
	WITH typed AS (SELECT lower(regexp_replace(p_address, '^\s+|\s+$', '', 'g')) AS lowered),
	candidate AS (SELECT t.lowered, regexp_replace(t.lowered, '^0x', '') AS core FROM typed t)
	SELECT r.id, r.name, r.address
		FROM saved_recipients r, candidate c
		WHERE r.user_id = p_user_id
			AND lower(r.address) <> c.lowered
			AND left(lower(regexp_replace(r.address, '^0x', '')), 4) = left(c.core, 4)
			AND right(lower(r.address), 4) = right(c.core, 4)
			AND NOT EXISTS (SELECT 1 FROM saved_recipients s
				WHERE s.user_id = p_user_id AND lower(s.address) = c.lowered)
		ORDER BY r.created_at, r.id
		LIMIT 1
$$;
