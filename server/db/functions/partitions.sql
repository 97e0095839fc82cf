-- Monthly partitions of the tables migration 0053 partitioned (decision 063): the jobs room's partition loop
-- (server/lib/partitions.ts) adds the coming months ahead and drops the months past a table's retention. Both do
-- nothing where partitioned_tables is empty (PGlite keeps one table of each).

-- Creates the monthly partitions of every partitioned table from its newest bound until `p_months` months after
-- the current one; returns the names created. Two runners at once: the advisory lock makes the second wait and
-- then find every month there. A new month is made as a table of its own and then attached: ATTACH takes only
-- SHARE UPDATE EXCLUSIVE on the parent (CREATE TABLE ... PARTITION OF would take ACCESS EXCLUSIVE), and the
-- lock_timeout leaves the next pass to try again rather than queue writers behind a long reader.
CREATE OR REPLACE FUNCTION partitions_premake(p_months integer)
RETURNS text[]
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	t record;
	v_from timestamptz;
	v_until timestamptz := (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => p_months + 1)) AT TIME ZONE 'UTC';
	v_name text;
	v_made text[] := '{}';
BEGIN
	PERFORM pg_advisory_xact_lock(7310203);
	-- Under deadlock_timeout (1 s): a writer that waits on the new month while this waits on the writer is never
	-- the one PostgreSQL's deadlock check cancels; this gives up first and the next pass tries again.
	PERFORM set_config('lock_timeout', '200ms', true);
	FOR t IN SELECT p.table_name, p.cutoff, p.local_key FROM partitioned_tables p
		WHERE (SELECT relkind FROM pg_class WHERE oid = p.table_name::regclass) = 'p' ORDER BY p.table_name
	LOOP
		SELECT coalesce(max(b.upper), t.cutoff) INTO v_from
			FROM partition_bounds(t.table_name) b;
		WHILE v_from < v_until LOOP
			v_name := t.table_name || '_' || to_char(v_from AT TIME ZONE 'UTC', 'YYYYMM');
			-- A lock not had in time undoes this month only (its subtransaction) and leaves the table's later
			-- months to the next pass; the months already made stay.
			BEGIN
				EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', v_name, t.table_name);
				EXECUTE format('ALTER TABLE %I ADD PRIMARY KEY (%s)', v_name, t.local_key);
				EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
					t.table_name, v_name, v_from, (v_from AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC');
			EXCEPTION WHEN lock_not_available OR deadlock_detected THEN
				EXIT;
			END;
			v_made := v_made || v_name;
			v_from := (v_from AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC';
		END LOOP;
	END LOOP;
	RETURN v_made;
END $$;
--> statement-breakpoint
-- A partitioned table's partitions with their bounds: lower is null for the old table's MINVALUE.
CREATE OR REPLACE FUNCTION partition_bounds(p_table text)
RETURNS TABLE (name text, lower timestamptz, upper timestamptz)
LANGUAGE sql STABLE AS $$
	SELECT c.relname::text,
		nullif(substring(pg_get_expr(c.relpartbound, c.oid) FROM 'FROM \(''([^'']+)''\)'), '')::timestamptz,
		substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']+)''\)')::timestamptz
	FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	WHERE i.inhparent = p_table::regclass
	ORDER BY 3;
$$;
--> statement-breakpoint
-- Drops the partitions of `p_table` whose every possible row is older than `p_keep` (a partition's upper bound at
-- or before now() - p_keep): a month still holding a row within the retention is never dropped, so rows live
-- between the retention and the retention plus a month. The event log's months wait, as its row deletes did,
-- until every consumer has read past their newest event. Returns the names dropped. p_now is for tests: a date
-- months ahead shows what a later pass drops.
-- A month is dropped (decision 076) as it is (DROP TABLE of the partition), never detached first: a detached partition keeps its
-- foreign keys as constraints of its own, and dropping those takes ACCESS EXCLUSIVE on the tables they point at
-- (users), so a customer's write holding users and waiting for user_events made a deadlock with the drop holding
-- user_events (a sign-up was cancelled). Dropped as a partition, only the parent and the month are locked, in
-- tries of 200 ms (under deadlock_timeout, as partitions_premake): a month not dropped waits for the next pass.
CREATE OR REPLACE FUNCTION partitions_drop_expired(p_table text, p_keep interval, p_now timestamptz DEFAULT now())
RETURNS text[]
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	b record;
	v_dropped text[] := '{}';
	v_unread boolean;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM partitioned_tables WHERE table_name = p_table)
		OR (SELECT relkind FROM pg_class WHERE oid = p_table::regclass) <> 'p' THEN
		RETURN v_dropped;
	END IF;
	PERFORM pg_advisory_xact_lock(7310203);
	PERFORM set_config('lock_timeout', '200ms', true);
	FOR b IN SELECT * FROM partition_bounds(p_table) WHERE upper <= p_now - p_keep ORDER BY upper
	LOOP
		IF p_table = 'events' THEN
			EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I e, job_cursors c WHERE (c.xact, c.event_id) < (e.xact, e.id))', b.name)
				INTO v_unread;
			IF v_unread THEN EXIT; END IF;
		END IF;
		BEGIN
			EXECUTE format('DROP TABLE %I', b.name);
		EXCEPTION WHEN lock_not_available OR deadlock_detected THEN
			EXIT;
		END;
		v_dropped := v_dropped || b.name;
	END LOOP;
	RETURN v_dropped;
END $$;
