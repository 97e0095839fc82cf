-- Whether a user has a second factor enrolled, the one copy of the rule: a confirmed authenticator (TOTP) or a
-- passkey. Recovery codes alone are no factor: they stand in for a lost one. With a factor, sign-in, money out
-- and security changes need a proof (getSecondFactorState, getStepUpState, create_transfer_request); staff
-- lists show it (find-staff.ts).
CREATE OR REPLACE FUNCTION has_second_factor(p_user_id uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
	SELECT EXISTS (SELECT 1 FROM totp_factors f WHERE f.user_id = p_user_id AND f.confirmed_at IS NOT NULL)
		OR EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = p_user_id)
$$;
