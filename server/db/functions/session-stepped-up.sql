-- Whether this session proved a second factor in the last five minutes (a step-up, server/features/auth/step-up.ts):
-- an unconsumed 'step_up' challenge keyed by the session's own id hash, so it dies with the session and never
-- moves to another one. Read by getStepUpState and by pay_by_tag under its call.
CREATE OR REPLACE FUNCTION session_stepped_up(p_id_hash text, p_user_id uuid)
RETURNS boolean
LANGUAGE sql STABLE AS $$
	SELECT EXISTS (SELECT 1 FROM auth_challenges c
		WHERE c.token_hash = p_id_hash AND c.purpose = 'step_up' AND c.user_id = p_user_id
			AND c.consumed_at IS NULL AND c.expires_at > now())
$$;
