-- pillar:no-transaction
-- Issue 50 (decision 063): the tables that grow with customers and time become partitioned by month of
-- created_at on PostgreSQL, converted online: each statement below commits on its own (the first line tells
-- server/db/migrate.ts), so the one long step, VALIDATE CONSTRAINT, holds only SHARE UPDATE EXCLUSIVE (writers go
-- on), and every exclusive lock lasts a catalog change, taken in tries that wait 200 ms at most (partition_step).
-- The table as it is becomes the partition of everything before a cutoff (the first of the month after next,
-- UTC); the partition-maintenance job (server/db/functions/partitions.sql) adds the months from the cutoff on, and
-- retention drops whole months.
-- A partitioned table has no key over all partitions that leaves out created_at: each partition keeps its own
-- primary key on the old columns (ids come from gen_random_uuid() or a sequence, unique by construction), and the
-- foreign keys that pointed at transactions(id) are dropped (the ledger check, verifyLedger, looks for orphans).
-- PGlite keeps one table of each (the embedded database is small); every function below returns there at once.
-- Safe to run again after a crash: each step looks at the catalog before it acts.
CREATE TABLE IF NOT EXISTS "partitioned_tables" (
	"table_name" text PRIMARY KEY NOT NULL,
	-- The old table, now a partition, holds every row before this; monthly partitions start here.
	"cutoff" timestamp with time zone NOT NULL,
	-- The columns of each partition's own primary key (the old table's).
	"local_key" text NOT NULL,
	"converted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pg_temp.partition_month(p_table text, p_key text, p_from timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	v_name text := p_table || '_' || to_char(p_from AT TIME ZONE 'UTC', 'YYYYMM');
BEGIN
	-- As partitions_premake (server/db/functions/partitions.sql) makes a month, which is applied after the schema.
	EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', v_name, p_table);
	EXECUTE format('ALTER TABLE %I ADD PRIMARY KEY (%s)', v_name, p_key);
	EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
		p_table, v_name, p_from, (p_from AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC');
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pg_temp.partition_mark(p_table text, p_key text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	v_month timestamptz := date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
	v_cutoff timestamptz;
	v_cutoff_is_now boolean := false;
BEGIN
	IF version() LIKE '%PGlite%' OR (SELECT relkind FROM pg_class WHERE oid = p_table::regclass) <> 'r' THEN
		RETURN;
	END IF;
	EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', p_table);
	-- An empty table (a new install) is converted here and now, under this lock, with monthly partitions from the
	-- current month: nothing to validate, and no writer meets the check before the partitions exist.
	IF NOT EXISTS (SELECT 1 FROM partitioned_tables WHERE table_name = p_table) THEN
		EXECUTE format('SELECT NOT EXISTS (SELECT 1 FROM %I)', p_table) INTO STRICT v_cutoff_is_now;
	END IF;
	IF v_cutoff_is_now THEN
		INSERT INTO partitioned_tables (table_name, cutoff, local_key) VALUES (p_table, v_month, p_key);
		EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (created_at < %L)',
			p_table, p_table || '_before_partitioning', v_month);
		PERFORM pg_temp.partition_convert(p_table);
		PERFORM pg_temp.partition_month(p_table, p_key, v_month);
		PERFORM pg_temp.partition_month(p_table, p_key, (v_month AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC');
		RETURN;
	END IF;
	-- A month at least between this check and the cutoff: no row written meanwhile can break it.
	INSERT INTO partitioned_tables (table_name, cutoff, local_key)
		VALUES (p_table, (v_month AT TIME ZONE 'UTC' + interval '2 months') AT TIME ZONE 'UTC', p_key)
		ON CONFLICT (table_name) DO NOTHING;
	SELECT cutoff INTO STRICT v_cutoff FROM partitioned_tables WHERE table_name = p_table;
	IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = p_table::regclass AND conname = p_table || '_before_partitioning') THEN
		-- NOT VALID: no scan under this statement's ACCESS EXCLUSIVE lock.
		EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (created_at < %L) NOT VALID',
			p_table, p_table || '_before_partitioning', v_cutoff);
	END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pg_temp.partition_validate(p_table text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF version() LIKE '%PGlite%' OR (SELECT relkind FROM pg_class WHERE oid = p_table::regclass) <> 'r' THEN
		RETURN;
	END IF;
	-- The scan, under SHARE UPDATE EXCLUSIVE only: reads and writes go on. ATTACH PARTITION then trusts it.
	EXECUTE format('ALTER TABLE %I VALIDATE CONSTRAINT %I', p_table, p_table || '_before_partitioning');
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pg_temp.partition_convert(p_table text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	v_cutoff timestamptz;
	v_old text;
	v_suffix text;
	r record;
	v_indexes text[] := '{}';
	v_triggers text[] := '{}';
	v_fkeys text[] := '{}';
	v_def text;
	v_last bigint;
	v_called boolean;
BEGIN
	IF version() LIKE '%PGlite%' OR (SELECT relkind FROM pg_class WHERE oid = p_table::regclass) <> 'r' THEN
		RETURN;
	END IF;
	SELECT cutoff INTO STRICT v_cutoff FROM partitioned_tables WHERE table_name = p_table;
	v_suffix := to_char(v_cutoff AT TIME ZONE 'UTC', 'YYYYMM');
	v_old := p_table || '_before_' || v_suffix;
	EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', p_table);

	-- What the parent must have, read while the names are still the old ones.
	FOR r IN SELECT i.indexrelid, c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		WHERE i.indrelid = p_table::regclass
			AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = i.indrelid AND k.conindid = i.indexrelid)
	LOOP
		v_indexes := v_indexes || pg_get_indexdef(r.indexrelid);
		EXECUTE format('ALTER INDEX %I RENAME TO %I', r.relname, left(r.relname, 55) || '_' || v_suffix);
	END LOOP;
	FOR r IN SELECT tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = p_table::regclass AND NOT tgisinternal
	LOOP
		v_triggers := v_triggers || r.def;
		EXECUTE format('DROP TRIGGER %I ON %I', r.tgname, p_table);
	END LOOP;
	FOR r IN SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = p_table::regclass AND contype = 'f'
	LOOP
		v_fkeys := v_fkeys || format('ALTER TABLE %I ADD CONSTRAINT %I %s', p_table, r.conname, r.def);
	END LOOP;
	-- A key that leaves out created_at cannot be unique over partitions, so nothing can reference one.
	FOR r IN SELECT conname, conrelid::regclass AS rel FROM pg_constraint WHERE confrelid = p_table::regclass AND contype = 'f'
	LOOP
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.rel, r.conname);
	END LOOP;

	EXECUTE format('ALTER TABLE %I RENAME TO %I', p_table, v_old);
	EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (created_at)',
		p_table, v_old);
	EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', p_table, p_table || '_before_partitioning');

	-- Ids: an identity column becomes a sequence the parent owns (PostgreSQL 15 has no identity on a partitioned
	-- table), continuing where the identity was; a serial's sequence moves to the parent, so dropping the old
	-- partition one day does not drop the sequence.
	FOR r IN SELECT a.attname, a.attidentity, pg_get_serial_sequence(quote_ident(v_old), a.attname) AS seq
		FROM pg_attribute a WHERE a.attrelid = v_old::regclass AND a.attnum > 0 AND NOT a.attisdropped
			AND pg_get_serial_sequence(quote_ident(v_old), a.attname) IS NOT NULL
	LOOP
		IF r.attidentity <> '' THEN
			EXECUTE format('SELECT last_value, is_called FROM %s', r.seq) INTO v_last, v_called;
			EXECUTE format('ALTER TABLE %I ALTER COLUMN %I DROP IDENTITY', v_old, r.attname);
			EXECUTE format('CREATE SEQUENCE %s AS bigint', r.seq);
			PERFORM setval(r.seq, v_last, v_called);
		END IF;
		EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET DEFAULT nextval(%L::regclass)', p_table, r.attname, r.seq);
		EXECUTE format('ALTER SEQUENCE %s OWNED BY %I.%I', r.seq, p_table, r.attname);
	END LOOP;

	-- On the empty parent these cost nothing; ATTACH then adopts the old table's equal indexes and foreign keys.
	FOREACH v_def IN ARRAY v_indexes LOOP EXECUTE v_def; END LOOP;
	FOREACH v_def IN ARRAY v_fkeys LOOP EXECUTE v_def; END LOOP;
	-- No scan: the validated check proves every row is below the cutoff.
	EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)', p_table, v_old, v_cutoff);
	FOREACH v_def IN ARRAY v_triggers LOOP EXECUTE v_def; END LOOP;
	UPDATE partitioned_tables SET converted_at = now() WHERE table_name = p_table;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pg_temp.partition_step(p_step text, p_table text, p_key text DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	-- Each try waits at most 200 ms for any one lock, and gives back every lock it took when it gives up: an
	-- exclusive lock is never held while waiting behind a writer (who may be waiting for it), and writers queue
	-- behind this session for 200 ms at most.
	FOR attempt IN 1..100 LOOP
		BEGIN
			PERFORM set_config('lock_timeout', '200ms', true);
			IF p_step = 'mark' THEN
				PERFORM pg_temp.partition_mark(p_table, p_key);
			ELSE
				PERFORM pg_temp.partition_convert(p_table);
			END IF;
			RETURN;
		EXCEPTION WHEN lock_not_available OR deadlock_detected THEN
			PERFORM pg_sleep(0.05 + random() * 0.25);
		END;
	END LOOP;
	RAISE EXCEPTION 'partitioning %: the locks of step % were not had in 100 tries', p_table, p_step;
END $$;
--> statement-breakpoint
SELECT pg_temp.partition_step('mark', 'transactions', 'id');
--> statement-breakpoint
SELECT pg_temp.partition_step('mark', 'notifications', 'id');
--> statement-breakpoint
SELECT pg_temp.partition_step('mark', 'audit_log', 'id');
--> statement-breakpoint
SELECT pg_temp.partition_step('mark', 'events', 'id');
--> statement-breakpoint
SELECT pg_temp.partition_step('mark', 'user_events', 'user_id, id');
--> statement-breakpoint
SELECT pg_temp.partition_validate('transactions');
--> statement-breakpoint
SELECT pg_temp.partition_validate('notifications');
--> statement-breakpoint
SELECT pg_temp.partition_validate('audit_log');
--> statement-breakpoint
SELECT pg_temp.partition_validate('events');
--> statement-breakpoint
SELECT pg_temp.partition_validate('user_events');
--> statement-breakpoint
SELECT pg_temp.partition_step('convert', 'transactions');
--> statement-breakpoint
SELECT pg_temp.partition_step('convert', 'notifications');
--> statement-breakpoint
SELECT pg_temp.partition_step('convert', 'audit_log');
--> statement-breakpoint
SELECT pg_temp.partition_step('convert', 'events');
--> statement-breakpoint
SELECT pg_temp.partition_step('convert', 'user_events');
