-- Savings at a variable APY (decision 068): the rate of a day, its daily interest, the day's accrual,
-- the month's credit, and moving money between checking and savings in one call. Amounts are cents; accrued
-- interest is kept in millionths of a dollar (1 cent = 10,000 micros) until the month's credit rounds it.

-- The approved APY (basis points) in force on a New York day: the approved rate with the latest effective day on or
-- before it (savings_rates always holds one from 2000-01-01).
CREATE OR REPLACE FUNCTION savings_rate_on(p_day date)
RETURNS integer
LANGUAGE sql STABLE AS $$
	SELECT r.apy_bps FROM savings_rates r WHERE r.status = 'approved' AND r.effective_on <= p_day
	ORDER BY r.effective_on DESC LIMIT 1
$$;
--> statement-breakpoint
-- The interest a cent earns on one day, as a fraction: within a month of d days in a year of Y days (365 or 366)
-- a balance earns ((1 + APY)^(d / Y) − 1) / d a day, simple within the month and credited at its end, so twelve
-- months of a constant balance multiply to (1 + APY)^(Y / Y): the APY exactly, in a leap year too (decision 068,
-- with Regulation DD's Appendix A). Numeric throughout: no float rounds a rate.
CREATE OR REPLACE FUNCTION savings_daily_rate(p_apy_bps integer, p_day date)
RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
	SELECT (power(1 + p_apy_bps::numeric / 10000,
			d.month_days::numeric / d.year_days) - 1) / d.month_days
	FROM (SELECT extract(day from (date_trunc('month', p_day) + interval '1 month - 1 day'))::integer AS month_days,
		(make_date(extract(year from p_day)::integer + 1, 1, 1) - make_date(extract(year from p_day)::integer, 1, 1)) AS year_days) d
$$;
--> statement-breakpoint
-- The first instant of a New York day, as every day boundary of the bank is drawn (contract/bank-time.ts).
CREATE OR REPLACE FUNCTION new_york_start(p_day date)
RETURNS timestamptz
LANGUAGE sql STABLE AS $$
	SELECT p_day::timestamp AT TIME ZONE 'America/New_York'
$$;
--> statement-breakpoint
-- The accrual of at most p_limit open savings accounts, each through p_through or the end of the month of its next
-- day to accrue, whichever is first (the month's credit comes before the next month: it is part of that month's
-- balance). Each day's closing balance is the previous day's plus that day's postings (one read of the account's
-- postings for the whole span, grouped by New York day); its interest, rounded down to the micro, at that day's
-- rate (savings_daily_rate of the rate in force that day); the span's days, balance-days and micros join the
-- month's row, and the account's last accrued day and closing balance move, all in this one statement. The
-- accounts are claimed in order of their next day with SKIP LOCKED, so two instances never accrue one account's day
-- twice, and an account that missed days (downtime) catches up a month a claim rather than a day a claim. With
-- p_account, that one account only, whose row the caller holds locked (close_savings brings it up to date). Answers
-- how many accounts accrued and how many account-days.
CREATE OR REPLACE FUNCTION accrue_savings(p_through date, p_limit integer, p_account uuid DEFAULT NULL)
RETURNS TABLE (accounts integer, account_days integer)
-- JIT off: generate_series' default estimate (1,000 rows an account) makes a 5,000-account batch look like millions
-- of rows, and compiling it took 1.2 s of a 1.8 s batch (EXPLAIN ANALYZE at 100,000 accounts; decision 062 saw the
-- same in the statement run).
LANGUAGE sql VOLATILE SET jit = off AS $$
	WITH batch AS (
		SELECT s.account_id, s.closing_balance, coalesce(s.accrued_through + 1, s.opened_on) AS from_day
		FROM savings_accounts s
		-- Waiting for a credit is read from the claimed row itself: under a lock taken after another instance
		-- committed, PostgreSQL rechecks these conditions on the row's newest version, where a subquery on another
		-- table would still read the statement's older snapshot (and miss a month just accrued to its end).
		WHERE p_account IS NULL AND s.closed_at IS NULL AND NOT s.awaiting_credit
			AND coalesce(s.accrued_through + 1, s.opened_on) <= p_through
		ORDER BY coalesce(s.accrued_through + 1, s.opened_on), s.account_id
		LIMIT p_limit FOR UPDATE SKIP LOCKED
	), one AS (
		-- A branch of its own rather than an OR in the batch's condition: the function's plan is made once for any
		-- argument, and an OR would cost the batch its index (and this account a scan of the work list).
		SELECT s.account_id, s.closing_balance, coalesce(s.accrued_through + 1, s.opened_on) AS from_day
		FROM savings_accounts s
		WHERE s.account_id = p_account AND s.closed_at IS NULL AND NOT s.awaiting_credit
			AND coalesce(s.accrued_through + 1, s.opened_on) <= p_through
	), claimed AS (
		SELECT * FROM batch UNION ALL SELECT * FROM one
	), spans AS (
		SELECT c.account_id, c.closing_balance, c.from_day,
			least(p_through, (date_trunc('month', c.from_day) + interval '1 month - 1 day')::date) AS to_day
		FROM claimed c
	), moves AS (
		SELECT sp.account_id, (p.created_at AT TIME ZONE 'America/New_York')::date AS day, sum(p.amount) AS moved
		FROM spans sp JOIN postings p ON p.account_id = sp.account_id
			AND p.created_at >= new_york_start(sp.from_day) AND p.created_at < new_york_start(sp.to_day + 1)
		GROUP BY 1, 2
	), balances AS (
		SELECT sp.account_id, d.day,
			sp.closing_balance + sum(coalesce(m.moved, 0)) OVER (PARTITION BY sp.account_id ORDER BY d.day) AS balance
		FROM spans sp
		CROSS JOIN LATERAL (SELECT g::date AS day FROM generate_series(sp.from_day, sp.to_day, interval '1 day') g) d
		LEFT JOIN moves m ON m.account_id = sp.account_id AND m.day = d.day
	), rates AS (
		SELECT x.day, savings_daily_rate(savings_rate_on(x.day), x.day) AS rate FROM (SELECT DISTINCT day FROM balances) x
	), daily AS (
		SELECT b.account_id, b.day, b.balance, floor(b.balance * 10000 * r.rate)::bigint AS micros
		FROM balances b JOIN rates r ON r.day = b.day
	), summed AS (
		SELECT d.account_id, date_trunc('month', min(d.day))::date AS month, count(*)::integer AS days,
			sum(d.balance)::bigint AS balance_days, sum(d.micros)::bigint AS micros,
			max(d.day) AS through, (array_agg(d.balance ORDER BY d.day DESC))[1]::bigint AS closing
		FROM daily d
		GROUP BY d.account_id
	), tallied AS (
		-- Finance's figure of each day (decision 071): one row per batch and day, insert-only.
		INSERT INTO savings_interest_days (day, accrued_micros, account_days)
		SELECT d.day, sum(d.micros), count(*) FROM daily d GROUP BY d.day
		RETURNING 1
	), moved AS (
		UPDATE savings_accounts s SET accrued_through = m.through, closing_balance = m.closing,
			awaiting_credit = m.through = (m.month + interval '1 month - 1 day')::date
		FROM summed m WHERE s.account_id = m.account_id
		RETURNING s.account_id
	), accrued AS (
		INSERT INTO savings_interest AS i (account_id, month, days, balance_days, accrued_micros, through)
		SELECT m.account_id, m.month, m.days, m.balance_days, m.micros, m.through FROM summed m
		ON CONFLICT (account_id, month) DO UPDATE SET days = i.days + excluded.days,
			balance_days = i.balance_days + excluded.balance_days,
			accrued_micros = i.accrued_micros + excluded.accrued_micros, through = excluded.through
		RETURNING i.days
	)
	SELECT (SELECT count(*)::integer FROM moved), (SELECT coalesce(sum(m.days), 0)::integer FROM summed m)
$$;
--> statement-breakpoint
-- Some accounts' interest for one month credited, set-based: their savings_interest rows and savings account rows
-- held by the caller. For each, accrued plus carried micros, rounded down to the cent; the rest carried into the
-- next month, or, for an account closed, given up (less than a cent). Two entries per account with interest: the
-- interest recognised (expense → payable) and paid (payable → the savings account), their postings dated
-- p_value_at, by default the last instant of the month's last New York day (the day interest is paid, Regulation
-- DD's crediting), however late the job ran: the month's statement and the year's 1099-INT hold it, and the next
-- month's first day accrues on it. One statement for the whole batch: each table is written once (the statement
-- triggers on ledger_accounts fire once, not once an account), the foreign keys checked at its end. Answers each
-- account credited with the cents paid; an account whose month has no row left to credit is not in the answer.
CREATE OR REPLACE FUNCTION credit_savings_accounts(p_month date, p_accounts uuid[], p_value_at timestamptz DEFAULT NULL)
RETURNS TABLE (credited_account uuid, credited bigint)
LANGUAGE plpgsql VOLATILE SET jit = off AS $$
DECLARE
	v_last date := (p_month + interval '1 month - 1 day')::date;
	-- The last instant of the month's last New York day: the interest is paid on that day, after its accrual.
	v_value_at timestamptz := coalesce(p_value_at,
		new_york_start((p_month + interval '1 month')::date) - interval '1 microsecond');
	v_label text := 'Interest for ' || to_char(p_month, 'FMMonth YYYY');
	v_expense uuid := (SELECT a.id FROM ledger_accounts a WHERE a.code = 'interest_expense');
	v_payable uuid := (SELECT a.id FROM ledger_accounts a WHERE a.code = 'interest_payable');
BEGIN
	RETURN QUERY
	WITH due AS MATERIALIZED (
		SELECT i.account_id, i.accrued_micros + i.carry_in_micros AS total,
			(i.accrued_micros + i.carry_in_micros) / 10000 AS cents, s.closed_at,
			gen_random_uuid() AS accrued_entry, gen_random_uuid() AS paid_entry
		FROM savings_interest i JOIN savings_accounts s ON s.account_id = i.account_id
		WHERE i.account_id = ANY (p_accounts) AND i.month = p_month AND i.credited_cents IS NULL
	), entries AS (
		INSERT INTO journal_entries (id, kind, description, reference_type, reference_id)
		SELECT e.id, e.kind, v_label, 'savings_interest', d.account_id || ':' || p_month
		FROM due d CROSS JOIN LATERAL (VALUES (d.accrued_entry, 'interest_accrued'), (d.paid_entry, 'interest_paid'))
			AS e (id, kind)
		WHERE d.cents > 0
	), posted AS (
		INSERT INTO postings (entry_id, account_id, amount, created_at)
		SELECT p.entry_id, p.account_id, p.amount, v_value_at
		FROM due d CROSS JOIN LATERAL (VALUES
			(d.accrued_entry, v_expense, -d.cents), (d.accrued_entry, v_payable, d.cents),
			(d.paid_entry, v_payable, -d.cents), (d.paid_entry, d.account_id, d.cents)) AS p (entry_id, account_id, amount)
		WHERE d.cents > 0
	), balances AS (
		UPDATE ledger_accounts a SET balance = a.balance + d.cents FROM due d WHERE a.id = d.account_id AND d.cents > 0
	), accounts AS (
		-- The last day's closing balance, accrued before the credit, holds it from now on (the next day's is it plus
		-- that day's postings), and the next month may accrue.
		UPDATE savings_accounts s SET closing_balance = s.closing_balance + d.cents, awaiting_credit = false
		FROM due d WHERE s.account_id = d.account_id AND s.accrued_through = v_last
	), credited_rows AS (
		UPDATE savings_interest i SET credited_cents = d.cents, carry_out_micros = d.total - d.cents * 10000,
			entry_id = CASE WHEN d.cents > 0 THEN d.paid_entry END, credited_at = now()
		FROM due d WHERE i.account_id = d.account_id AND i.month = p_month
	), tallied AS (
		-- Finance's figure of the day the interest is paid on (decision 071): one row a batch, insert-only. The
		-- day is the postings' New York day: a month's last day, or a closing's day for what it paid at once.
		INSERT INTO savings_interest_days (day, paid_cents, accounts_paid)
		SELECT (v_value_at AT TIME ZONE 'America/New_York')::date, sum(d.cents), count(*)
		FROM due d WHERE d.cents > 0 HAVING count(*) > 0
	), carried AS (
		-- What is below the cent starts the next month (an account closed gave up less than a cent).
		INSERT INTO savings_interest AS i (account_id, month, through, carry_in_micros)
		SELECT d.account_id, (p_month + interval '1 month')::date, v_last, d.total - d.cents * 10000
		FROM due d WHERE d.closed_at IS NULL AND d.total - d.cents * 10000 > 0
		ON CONFLICT (account_id, month) DO UPDATE SET carry_in_micros = excluded.carry_in_micros
	)
	SELECT d.account_id, d.cents FROM due d;
END;
$$;
--> statement-breakpoint
-- One account's interest for one month credited (credit_savings_accounts for one), its savings_interest row and
-- savings account row held by the caller. Answers the cents paid, NULL when the month has no row left to credit.
CREATE OR REPLACE FUNCTION credit_savings_interest(p_account uuid, p_month date, p_value_at timestamptz DEFAULT NULL)
RETURNS bigint
LANGUAGE sql VOLATILE AS $$
	SELECT c.credited FROM credit_savings_accounts(p_month, ARRAY[p_account], p_value_at) c
$$;
--> statement-breakpoint
-- The credit of one month's interest for at most p_limit accounts whose month is accrued to its last day (or that
-- closed within it). Rows are claimed with SKIP LOCKED and marked credited in the same transaction: exactly once
-- across instances. The savings account's row is claimed with them, so an account being closed (close_savings
-- holds it and credits its own months) is passed over rather than waited for, and the two never wait for each
-- other's rows. The claim is its own statement: the credit's statement starts after the locks are held, so it
-- reads every claimed row's newest version (a subquery of the claiming statement would read its older snapshot).
-- Answers each account credited, its customer and the cents paid (the caller tells them in the same transaction).
-- It answered only a count as credit_savings_month, which the caller followed with a scan of the month's rows for
-- the ones this transaction credited: a scan of every account's month per batch.
DROP FUNCTION IF EXISTS credit_savings_month(date, integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION credit_savings_batch(p_month date, p_limit integer)
RETURNS TABLE (account_id uuid, user_id uuid, cents bigint)
LANGUAGE plpgsql VOLATILE SET jit = off AS $$
#variable_conflict use_column
DECLARE
	v_last date := (p_month + interval '1 month - 1 day')::date;
	v_claimed uuid[];
BEGIN
	v_claimed := ARRAY(
		SELECT i.account_id
		FROM savings_interest i JOIN savings_accounts s ON s.account_id = i.account_id
		WHERE i.month = p_month AND i.credited_cents IS NULL AND (i.through = v_last OR s.closed_at IS NOT NULL)
		ORDER BY i.account_id LIMIT p_limit FOR UPDATE OF i, s SKIP LOCKED);
	RETURN QUERY
		SELECT c.credited_account, s.user_id, c.credited
		FROM credit_savings_accounts(p_month, v_claimed) c JOIN savings_accounts s ON s.account_id = c.credited_account;
END;
$$;
--> statement-breakpoint
-- Money moved between a customer's checking and savings (decision 068) in one call: the wallet lock,
-- the idempotency record, the checks and the writes. One journal entry, settled at once, no fee; not a send, so
-- neither the bank's daily limit nor the day's count nor the customer's crypto-send block applies, and no second
-- factor is asked (the money stays in the customer's own accounts: what leaves the bank asks for one). Refused,
-- like every money movement, for a frozen, closed or staff account and one not yet open. The checking side shows
-- in the customer's history and statements; the event after it refreshes their screens.
--
-- One argument, a JSON object (decision 019): its fields are the column list below, checked by moveSavingsCall
-- (server/features/savings/move-savings.ts) before it is sent.
CREATE OR REPLACE FUNCTION move_savings(p_call jsonb)
RETURNS TABLE (outcome text, status_code integer, response jsonb, detail text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
	c record;
	v_wallet uuid;
	v_savings uuid;
	v_goal_name text;
	v_available bigint;
	v_outcome text;
	v_previous_status integer;
	v_previous_response jsonb;
	v_entry_id uuid;
	v_response jsonb;
	v_to_savings boolean;
BEGIN
	SELECT * INTO c FROM jsonb_to_record(p_call) AS x(
		user_id uuid,
		idempotency_key text,
		request_hash text,
		direction text,
		amount_cents bigint,
		goal_id uuid,
		move_id uuid,
		transaction_id uuid,
		created_at timestamptz,
		message text
	);
	IF num_nulls(c.user_id, c.idempotency_key, c.request_hash, c.direction, c.amount_cents, c.move_id,
			c.transaction_id, c.created_at, c.message) > 0 OR c.direction NOT IN ('to_savings', 'to_checking')
		OR c.amount_cents <= 0 THEN
		RAISE EXCEPTION 'move_savings: a required field is missing' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	v_to_savings := c.direction = 'to_savings';
	-- The wallet first, as every money movement of this customer takes it; then the savings account's ledger row.
	v_wallet := lock_wallet(c.user_id);
	SELECT i.outcome, i.status_code, i.response INTO v_outcome, v_previous_status, v_previous_response
		FROM idempotency_replay(c.user_id, c.idempotency_key, c.request_hash) i;
	IF FOUND THEN
		RETURN QUERY SELECT v_outcome, v_previous_status, v_previous_response, NULL::text;
		RETURN;
	END IF;
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id AND u.frozen_at IS NOT NULL) THEN
		RETURN QUERY SELECT 'account_frozen'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id AND cardinality(u.staff_roles) > 0) THEN
		RETURN QUERY SELECT 'staff_account'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id AND u.closed_at IS NOT NULL) THEN
		RETURN QUERY SELECT 'account_closed'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	IF NOT can_send_money(c.user_id) THEN
		RETURN QUERY SELECT 'setup_incomplete'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	SELECT s.account_id INTO v_savings FROM savings_accounts s WHERE s.user_id = c.user_id AND s.closed_at IS NULL;
	IF NOT FOUND THEN
		RETURN QUERY SELECT 'savings_not_open'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	IF c.goal_id IS NOT NULL THEN
		SELECT g.name INTO v_goal_name FROM savings_goals g
			WHERE g.id = c.goal_id AND g.user_id = c.user_id AND g.archived_at IS NULL;
		IF NOT FOUND THEN
			RETURN QUERY SELECT 'goal_not_found'::text, NULL::integer, NULL::jsonb, NULL::text;
			RETURN;
		END IF;
	END IF;
	-- The side the money leaves: checking's available balance (its held money stays), or savings' balance.
	IF v_to_savings THEN
		SELECT a.balance - a.held INTO v_available FROM ledger_accounts a WHERE a.id = v_wallet;
	ELSE
		SELECT a.balance INTO v_available FROM ledger_accounts a WHERE a.id = v_savings FOR UPDATE;
	END IF;
	IF c.amount_cents > v_available THEN
		RETURN QUERY SELECT 'insufficient_funds'::text, NULL::integer, NULL::jsonb, greatest(v_available, 0)::text;
		RETURN;
	END IF;

	-- This move's notices travel in its event: the row triggers of what it writes add none (event-log.sql).
	PERFORM pushes_by_caller();
	INSERT INTO journal_entries (kind, description, reference_type, reference_id, actor_id)
		VALUES ('savings_move', CASE WHEN v_to_savings THEN 'Checking to Savings' ELSE 'Savings to Checking' END,
			'savings_move', c.move_id::text, c.user_id)
		RETURNING id INTO v_entry_id;
	-- Dated at the caller's instant, as the history row is: the New York day the customer moved it on is the day
	-- whose closing balance holds it (the accrual reads a day's postings by this time).
	INSERT INTO postings (entry_id, account_id, amount, created_at) VALUES
		(v_entry_id, v_wallet, CASE WHEN v_to_savings THEN -c.amount_cents ELSE c.amount_cents END, c.created_at),
		(v_entry_id, v_savings, CASE WHEN v_to_savings THEN c.amount_cents ELSE -c.amount_cents END, c.created_at);
	UPDATE ledger_accounts a SET balance = a.balance + CASE WHEN (a.id = v_savings) = v_to_savings
			THEN c.amount_cents ELSE -c.amount_cents END
		WHERE a.id IN (v_wallet, v_savings);
	INSERT INTO transactions
		(id, user_id, type, amount, fee, net_amount, description, category, status, source_type, source_id, entry_id,
		 created_at, updated_at)
		VALUES (c.transaction_id, c.user_id, CASE WHEN v_to_savings THEN 'debit' ELSE 'credit' END, c.amount_cents, 0,
			c.amount_cents, CASE WHEN v_to_savings THEN 'To Savings' ELSE 'From Savings' END
				|| coalesce(': ' || v_goal_name, ''), 'savings', 'completed', 'savings', c.move_id, v_entry_id,
			c.created_at, c.created_at);
	INSERT INTO savings_moves (id, user_id, account_id, direction, amount, goal_id, entry_id, transaction_id, created_at)
		VALUES (c.move_id, c.user_id, v_savings, c.direction, c.amount_cents, c.goal_id, v_entry_id, c.transaction_id,
			c.created_at);
	v_response := jsonb_build_object('message', c.message, 'move', jsonb_build_object(
		'id', c.move_id, 'direction', c.direction, 'amountCents', c.amount_cents, 'goalId', c.goal_id,
		'createdAt', p_call->>'created_at'));
	INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response)
		VALUES (c.user_id, c.idempotency_key, c.request_hash, 201, v_response);
	PERFORM emit_event('savings.moved', c.user_id, jsonb_build_object(
		'move_id', c.move_id, 'direction', c.direction, 'amount_cents', c.amount_cents,
		'notices', jsonb_build_array(jsonb_build_object('user_id', c.user_id,
			'topics', jsonb_build_array('summary', 'transactions', 'savings')))));
	RETURN QUERY SELECT 'moved'::text, 201, v_response, NULL::text;
END;
$$;
--> statement-breakpoint
-- A customer's savings account closed (decision 068) in one call: the wallet lock, the idempotency
-- record, the checks, the interest owed and the money moved. The account is locked without SKIP LOCKED: an
-- accrual or credit batch holding it finishes first. Its interest is brought up to date through yesterday (New
-- York; today's closing balance will be zero and earns nothing), each complete month credited as the monthly job
-- would, then what this month has accrued so far is paid now, rounded down to the cent: the remainder below the
-- cent is given up, as an account's last month always gave it up. The whole balance, interest included, moves to
-- checking in one journal entry with its history row and savings_moves row ('closing'), and the account closes;
-- the customer may open another later (one open at a time). Refused for a frozen, closed or staff account and one
-- with no savings open.
--
-- One argument, a JSON object (decision 019): its fields are the column list below, checked by closeSavingsCall
-- (server/features/savings/close-savings.ts) before it is sent.
CREATE OR REPLACE FUNCTION close_savings(p_call jsonb)
RETURNS TABLE (outcome text, status_code integer, response jsonb, detail text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
	c record;
	v_wallet uuid;
	v_savings uuid;
	v_state record;
	v_yesterday date;
	v_month date;
	v_interest bigint := 0;
	v_credited bigint;
	v_balance bigint;
	v_outcome text;
	v_previous_status integer;
	v_previous_response jsonb;
	v_entry_id uuid;
	v_response jsonb;
BEGIN
	SELECT * INTO c FROM jsonb_to_record(p_call) AS x(
		user_id uuid,
		idempotency_key text,
		request_hash text,
		move_id uuid,
		transaction_id uuid,
		created_at timestamptz,
		message text
	);
	IF num_nulls(c.user_id, c.idempotency_key, c.request_hash, c.move_id, c.transaction_id, c.created_at,
			c.message) > 0 THEN
		RAISE EXCEPTION 'close_savings: a required field is missing' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- The wallet first, as every money movement of this customer takes it; then the savings account's row.
	v_wallet := lock_wallet(c.user_id);
	SELECT i.outcome, i.status_code, i.response INTO v_outcome, v_previous_status, v_previous_response
		FROM idempotency_replay(c.user_id, c.idempotency_key, c.request_hash) i;
	IF FOUND THEN
		RETURN QUERY SELECT v_outcome, v_previous_status, v_previous_response, NULL::text;
		RETURN;
	END IF;
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id AND u.frozen_at IS NOT NULL) THEN
		RETURN QUERY SELECT 'account_frozen'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id AND cardinality(u.staff_roles) > 0) THEN
		RETURN QUERY SELECT 'staff_account'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	IF EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id AND u.closed_at IS NOT NULL) THEN
		RETURN QUERY SELECT 'account_closed'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;
	SELECT s.account_id INTO v_savings FROM savings_accounts s
		WHERE s.user_id = c.user_id AND s.closed_at IS NULL FOR UPDATE;
	IF NOT FOUND THEN
		RETURN QUERY SELECT 'savings_not_open'::text, NULL::integer, NULL::jsonb, NULL::text;
		RETURN;
	END IF;

	-- Interest up to date through yesterday: a month's credit before the next month's first day (it is part of
	-- that day's balance), as the jobs do it, however far behind they are.
	v_yesterday := (c.created_at AT TIME ZONE 'America/New_York')::date - 1;
	LOOP
		SELECT s.accrued_through, s.awaiting_credit, coalesce(s.accrued_through + 1, s.opened_on) AS next_day
			INTO v_state FROM savings_accounts s WHERE s.account_id = v_savings;
		IF v_state.awaiting_credit THEN
			v_credited := credit_savings_interest(v_savings, date_trunc('month', v_state.accrued_through)::date);
			IF v_credited IS NULL THEN
				RAISE EXCEPTION 'close_savings: % awaits a credit it has no row for', v_savings;
			END IF;
			v_interest := v_interest + v_credited;
		ELSIF v_state.next_day <= v_yesterday THEN
			IF (SELECT a.accounts FROM accrue_savings(v_yesterday, 1, v_savings) a) <> 1 THEN
				RAISE EXCEPTION 'close_savings: % did not accrue', v_savings;
			END IF;
		ELSE
			EXIT;
		END IF;
	END LOOP;

	-- Closed before its last credit, so the credit carries nothing on: the part of a cent this month accrued beyond
	-- its whole cents is forfeited (decision 068). Paid now, before the balance moves, so the move takes it along.
	UPDATE savings_accounts SET closed_at = c.created_at WHERE account_id = v_savings;
	FOR v_month IN SELECT i.month FROM savings_interest i
			WHERE i.account_id = v_savings AND i.credited_cents IS NULL ORDER BY i.month LOOP
		v_interest := v_interest + credit_savings_interest(v_savings, v_month, c.created_at);
	END LOOP;
	SELECT a.balance INTO v_balance FROM ledger_accounts a WHERE a.id = v_savings;

	-- This closing's notices travel in its event: the row triggers of what it writes add none (event-log.sql).
	PERFORM pushes_by_caller();
	IF v_balance > 0 THEN
		INSERT INTO journal_entries (kind, description, reference_type, reference_id, actor_id)
			VALUES ('savings_move', 'Savings to Checking (account closed)', 'savings_move', c.move_id::text, c.user_id)
			RETURNING id INTO v_entry_id;
		INSERT INTO postings (entry_id, account_id, amount, created_at) VALUES
			(v_entry_id, v_wallet, v_balance, c.created_at), (v_entry_id, v_savings, -v_balance, c.created_at);
		UPDATE ledger_accounts a SET balance = a.balance + CASE WHEN a.id = v_savings THEN -v_balance ELSE v_balance END
			WHERE a.id IN (v_wallet, v_savings);
		INSERT INTO transactions
			(id, user_id, type, amount, fee, net_amount, description, category, status, source_type, source_id,
			 entry_id, created_at, updated_at)
			VALUES (c.transaction_id, c.user_id, 'credit', v_balance, 0, v_balance, 'From Savings (account closed)',
				'savings', 'completed', 'savings', c.move_id, v_entry_id, c.created_at, c.created_at);
		INSERT INTO savings_moves (id, user_id, account_id, direction, amount, entry_id, transaction_id, created_at)
			VALUES (c.move_id, c.user_id, v_savings, 'closing', v_balance, v_entry_id, c.transaction_id, c.created_at);
	END IF;
	v_response := jsonb_build_object('message', c.message, 'closing', jsonb_build_object(
		'accountId', v_savings, 'movedCents', v_balance, 'interestCents', v_interest,
		'closedAt', p_call->>'created_at'));
	INSERT INTO idempotency_keys (user_id, key, request_hash, status_code, response)
		VALUES (c.user_id, c.idempotency_key, c.request_hash, 200, v_response);
	PERFORM emit_event('savings.closed', c.user_id, jsonb_build_object(
		'account_id', v_savings, 'moved_cents', v_balance, 'interest_cents', v_interest,
		'notices', jsonb_build_array(jsonb_build_object('user_id', c.user_id,
			'topics', jsonb_build_array('summary', 'transactions', 'savings')))));
	RETURN QUERY SELECT 'closed'::text, 200, v_response, NULL::text;
END;
$$;
