-- A customer's wallet locked for the rest of the caller's transaction, opened first if it has none yet; answers
-- its id. Every money movement on a wallet takes this lock first, so two of them never see the same balance, and a
-- movement between two customers takes both in user id order (pay_by_tag), as every writer of two parties does;
-- a transfer request takes its customer's (create_transfer_request).
-- The same as lockWallet (server/lib/ledger.ts) for the functions that lock in SQL.
CREATE OR REPLACE FUNCTION lock_wallet(p_user_id uuid)
RETURNS uuid
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_id uuid;
BEGIN
	SELECT a.id INTO v_id FROM ledger_accounts a WHERE a.user_id = p_user_id FOR UPDATE;
	IF NOT FOUND THEN
		INSERT INTO ledger_accounts (code, kind, user_id) VALUES ('wallet:' || p_user_id, 'wallet', p_user_id)
			ON CONFLICT (code) DO NOTHING;
		SELECT a.id INTO v_id FROM ledger_accounts a WHERE a.user_id = p_user_id FOR UPDATE;
	END IF;
	RETURN v_id;
END;
$$;
