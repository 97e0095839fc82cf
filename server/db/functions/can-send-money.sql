-- The send-money gate, the one copy of the rule: an approved checking account with an account number and an
-- approved KYC, both current (not superseded by a newer submission). Stricter than the spec's "KYC not rejected"
-- (README, Design notes): money never leaves an account whose identity is not verified. create_transfer_request
-- refuses a closed gate under the wallet lock; GET /api/account/summary sends it as `canSendMoney`, which the web
-- shows (decision 019). A compliance restriction (compliance_restricted, decision 032) closes it too.
CREATE OR REPLACE FUNCTION can_send_money(p_user_id uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
	SELECT EXISTS (SELECT 1 FROM kyc_applications k
			WHERE k.user_id = p_user_id AND k.superseded_at IS NULL AND k.status = 'approved')
		AND EXISTS (SELECT 1 FROM account_requests r
			WHERE r.user_id = p_user_id AND r.superseded_at IS NULL AND r.status = 'approved'
				AND r.account_number IS NOT NULL)
		AND NOT compliance_restricted(p_user_id)
		-- A closed account (decision 059) neither sends nor, through tag_payee and the summary, receives.
		AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = p_user_id AND u.closed_at IS NOT NULL)
$$;
