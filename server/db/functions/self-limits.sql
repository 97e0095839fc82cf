-- The customer's own limits (decision 035), the one copy of their rules: what is in force at an
-- instant, and the only two ways a customer changes them. The instant is the server's clock sent by the caller
-- (create_transfer_request's created_at, the route's now), so tests move it like every other clock of the money
-- path. The customer_limits trigger at the end of this file refuses any write that would shorten a running
-- cooldown.

-- In force at p_at: the personal daily limit (NULL: the bank's alone), a raise still waiting, and whether sends
-- are blocked (switched on, or switched off with its cooldown still running until blocked_until).
CREATE OR REPLACE FUNCTION self_limits_at(p_user_id uuid, p_at timestamptz)
RETURNS TABLE (daily_limit_cents bigint, raise_to_cents bigint, raise_at timestamptz, raise_pending boolean,
	sends_blocked boolean, block_on boolean, block_cooldown text, blocked_until timestamptz)
LANGUAGE sql STABLE AS $$
	SELECT
		CASE WHEN l.raise_at <= p_at THEN l.raise_to_cents ELSE l.daily_limit_cents END,
		CASE WHEN l.raise_at > p_at THEN l.raise_to_cents END,
		CASE WHEN l.raise_at > p_at THEN l.raise_at END,
		coalesce(l.raise_at > p_at, false),
		coalesce(l.block_on OR l.blocked_until > p_at, false),
		coalesce(l.block_on, false),
		l.block_cooldown,
		CASE WHEN NOT l.block_on AND l.blocked_until > p_at THEN l.blocked_until END
	FROM (SELECT 1) AS one LEFT JOIN customer_limits l ON l.user_id = p_user_id
$$;
--> statement-breakpoint

-- Sets the personal daily limit (p_cents NULL: back to the bank's). Lower than the limit in force: at once, and a
-- waiting raise is dropped. Higher: it waits 24 hours from p_at (a new raise restarts the wait). Answers
-- 'lowered', 'unchanged' or 'raise_scheduled', and when the answered limit applies.
CREATE OR REPLACE FUNCTION set_personal_daily_limit(p_user_id uuid, p_cents bigint, p_at timestamptz)
RETURNS TABLE (outcome text, effective_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_current bigint;
BEGIN
	INSERT INTO customer_limits (user_id) VALUES (p_user_id) ON CONFLICT (user_id) DO NOTHING;
	PERFORM 1 FROM customer_limits l WHERE l.user_id = p_user_id FOR UPDATE;
	SELECT s.daily_limit_cents INTO v_current FROM self_limits_at(p_user_id, p_at) s;
	IF p_cents IS NOT NULL AND (v_current IS NULL OR p_cents < v_current) THEN
		UPDATE customer_limits SET daily_limit_cents = p_cents, raise_to_cents = NULL, raise_at = NULL,
			updated_at = now() WHERE user_id = p_user_id;
		RETURN QUERY SELECT 'lowered'::text, p_at;
	ELSIF p_cents IS NOT DISTINCT FROM v_current THEN
		UPDATE customer_limits SET daily_limit_cents = v_current, raise_to_cents = NULL, raise_at = NULL,
			updated_at = now() WHERE user_id = p_user_id;
		RETURN QUERY SELECT 'unchanged'::text, p_at;
	ELSE
		UPDATE customer_limits SET daily_limit_cents = v_current, raise_to_cents = p_cents,
			raise_at = p_at + interval '24 hours', updated_at = now() WHERE user_id = p_user_id;
		RETURN QUERY SELECT 'raise_scheduled'::text, p_at + interval '24 hours';
	END IF;
END;
$$;
--> statement-breakpoint

-- "Block crypto sends". On (p_on): blocked at once with the chosen cooldown ('switched_on' when it was not on,
-- answering the cooldown that ran before, which an undo restores; 'on' when it was and the cooldown grew or
-- stayed); while on, the cooldown may only grow ('cooldown_shorter' otherwise). Off: the block ends when the
-- cooldown, counted from now, has run, never earlier than a cooldown already running ('cooling'); off while not on
-- changes nothing ('not_on'). Only lift_send_block ends a block sooner.
CREATE OR REPLACE FUNCTION set_send_block(p_user_id uuid, p_on boolean, p_cooldown text, p_at timestamptz)
RETURNS TABLE (outcome text, blocked_until timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
	l customer_limits%ROWTYPE;
	v_from timestamptz := greatest(p_at, now());
	v_until timestamptz;
BEGIN
	INSERT INTO customer_limits (user_id) VALUES (p_user_id) ON CONFLICT (user_id) DO NOTHING;
	SELECT * INTO l FROM customer_limits c WHERE c.user_id = p_user_id FOR UPDATE;
	IF p_on THEN
		IF l.block_on AND p_cooldown::interval < l.block_cooldown::interval THEN
			RETURN QUERY SELECT 'cooldown_shorter'::text, NULL::timestamptz;
			RETURN;
		END IF;
		UPDATE customer_limits c SET block_on = true, block_cooldown = p_cooldown, updated_at = now()
			WHERE c.user_id = p_user_id;
		IF l.block_on THEN
			RETURN QUERY SELECT 'on'::text, NULL::timestamptz;
		ELSE
			RETURN QUERY SELECT 'switched_on'::text,
				CASE WHEN l.blocked_until > v_from THEN l.blocked_until END;
		END IF;
	ELSIF NOT l.block_on THEN
		RETURN QUERY SELECT 'not_on'::text, l.blocked_until;
	ELSE
		v_until := greatest(coalesce(l.blocked_until, v_from), v_from + l.block_cooldown::interval);
		UPDATE customer_limits c SET block_on = false, blocked_until = v_until, updated_at = now()
			WHERE c.user_id = p_user_id;
		RETURN QUERY SELECT 'cooling'::text, v_until;
	END IF;
END;
$$;
--> statement-breakpoint

-- The two ways a block ends sooner than its cooldown (decision 047): the customer's "This wasn't me" link within
-- hours of switching it on (p_restore_until: the cooldown that ran before, kept if still running) and a lift that
-- two compliance members approved after re-verifying the customer's identity (p_restore_until NULL). The caller
-- has checked which; this writes it through the one door customer_limits_keep_cooldown leaves open, a setting
-- local to this transaction that names the customer. Answers whether a block or cooldown was in force.
CREATE OR REPLACE FUNCTION lift_send_block(p_user_id uuid, p_restore_until timestamptz)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_lifted integer;
BEGIN
	PERFORM set_config('pillar.lift_send_block', p_user_id::text, true);
	UPDATE customer_limits c
		SET block_on = false,
			blocked_until = CASE WHEN p_restore_until > now() THEN p_restore_until END,
			updated_at = now()
		WHERE c.user_id = p_user_id AND (c.block_on OR c.blocked_until > now());
	GET DIAGNOSTICS v_lifted = ROW_COUNT;
	PERFORM set_config('pillar.lift_send_block', '', true);
	RETURN v_lifted > 0;
END;
$$;
--> statement-breakpoint

-- The table keeps the cooldown (migration 0029 wrote this trigger first; it lives here since decision 050, replaced in
-- place at every start): a running cooldown never gets shorter, an on block goes off only with its full cooldown,
-- an on block's cooldown never shrinks, and a row with a block is deleted only with its customer, whoever writes
-- the row. The one exception is lift_send_block's own write.
CREATE OR REPLACE FUNCTION customer_limits_keep_cooldown() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		-- Only with the customer's own row (ON DELETE CASCADE): the user is already gone by then.
		IF (OLD.block_on OR OLD.blocked_until > now())
				AND EXISTS (SELECT 1 FROM users u WHERE u.id = OLD.user_id) THEN
			RAISE EXCEPTION 'a send block or its cooldown cannot be removed' USING ERRCODE = 'check_violation';
		END IF;
		RETURN OLD;
	END IF;
	IF current_setting('pillar.lift_send_block', true) = OLD.user_id::text THEN
		RETURN NEW;
	END IF;
	IF OLD.blocked_until > now() AND (NEW.blocked_until IS NULL OR NEW.blocked_until < OLD.blocked_until) THEN
		RAISE EXCEPTION 'a running cooldown cannot be shortened' USING ERRCODE = 'check_violation';
	END IF;
	IF OLD.block_on AND NOT NEW.block_on
			AND (NEW.blocked_until IS NULL OR NEW.blocked_until < now() + OLD.block_cooldown::interval) THEN
		RAISE EXCEPTION 'turning a send block off must start its full cooldown' USING ERRCODE = 'check_violation';
	END IF;
	IF OLD.block_on AND NEW.block_on AND NEW.block_cooldown::interval < OLD.block_cooldown::interval THEN
		RAISE EXCEPTION 'a send block''s cooldown cannot be shortened' USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER customer_limits_keep_cooldown BEFORE UPDATE OR DELETE ON customer_limits
	FOR EACH ROW EXECUTE FUNCTION customer_limits_keep_cooldown();
