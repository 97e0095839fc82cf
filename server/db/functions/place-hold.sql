-- The one way money is set aside: the wallet's cached held grows and an open hold row records it, in the caller's
-- transaction after it locked the wallet. create_transfer_request calls it; so does placeHold (server/lib/ledger.ts),
-- which the ledger tests drive. The wallet CHECK (balance - held >= 0) refuses a hold beyond the available balance.
CREATE OR REPLACE FUNCTION place_hold(
	p_hold_id uuid,
	p_account_id uuid,
	p_amount bigint,
	p_reference_type text,
	p_reference_id text
) RETURNS uuid
LANGUAGE sql VOLATILE AS $$
	UPDATE ledger_accounts SET held = held + p_amount WHERE id = p_account_id;
	INSERT INTO holds (id, account_id, amount, reference_type, reference_id)
		VALUES (p_hold_id, p_account_id, p_amount, p_reference_type, p_reference_id)
		RETURNING id;
$$;
