-- The event log's writers (decision 051, migration 0041). A money movement's function writes one row with
-- emit_event as its last write: the jobs room (server/jobs/) does everything after the commit from it: the
-- customer's pushed updates (the "notices" field, server/jobs/consumers/pushes.ts), monitoring, notifications
-- and mail. One pg_notify on pillar_jobs per transaction (a repeated payload is sent once) wakes the room on
-- every instance.

-- Called first by a function that writes its own event: for the rest of its transaction the row triggers of
-- user-events.sql add no notice (the event's "notices" carry them to the pushes consumer after the commit), so
-- the money transaction takes no notice counter's lock and runs no trigger's queries.
CREATE OR REPLACE FUNCTION pushes_by_caller()
RETURNS void
LANGUAGE sql VOLATILE AS $$
	SELECT set_config('pillar.pushes_by_caller', 'on', true);
$$;
--> statement-breakpoint
-- One event: its kind ('transfer.requested', …), the customer it is about, and what its consumers need, read
-- without another query where it can be. A payload's "notices" is an array of {"user_id", "topics"}: the
-- screens of each user that changed.
CREATE OR REPLACE FUNCTION emit_event(p_kind text, p_user_id uuid, p_payload jsonb)
RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	v_id bigint;
BEGIN
	INSERT INTO events (kind, user_id, payload) VALUES (p_kind, p_user_id, p_payload) RETURNING id INTO v_id;
	PERFORM pg_notify('pillar_jobs', '');
	RETURN v_id;
END;
$$;
--> statement-breakpoint
-- The user behind a session cookie's hash, while the session counts (server/lib/session.ts's
-- activeSessionCondition: not idle for p_idle_seconds, not past its end) and the e-mail is verified; NULL
-- otherwise. A money function checks the session itself, under its call, so a session ended on another
-- instance a moment ago (whose cache still holds it) moves no money.
CREATE OR REPLACE FUNCTION active_session_user(p_id_hash text, p_idle_seconds integer)
RETURNS uuid
LANGUAGE sql STABLE AS $$
	SELECT s.user_id FROM sessions s JOIN users u ON u.id = s.user_id
	WHERE s.id_hash = p_id_hash AND s.expires_at > now()
		AND s.last_seen_at > now() - make_interval(secs => p_idle_seconds) AND u.is_email_verified;
$$;
--> statement-breakpoint
-- The session's activity, recorded by the money function that checked it (active_session_user): a route whose SQL
-- checks the session trusts this process's cached copy without a lookup (server/lib/session.ts), so the call is
-- where its last_seen_at moves, at most once every p_touch_seconds (conditional: concurrent calls write it once).
CREATE OR REPLACE FUNCTION touch_session(p_id_hash text, p_touch_seconds integer)
RETURNS void
LANGUAGE sql VOLATILE AS $$
	UPDATE sessions SET last_seen_at = now()
	WHERE id_hash = p_id_hash AND last_seen_at < now() - make_interval(secs => p_touch_seconds);
$$;
