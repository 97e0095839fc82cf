-- Account closure (decision 059), the one copy of its two rules.

-- Whether the customer ever moved money: a posting on their wallet (every credit, debit, hold capture and
-- adjustment posts one), or a money row naming them that has not posted yet (a transfer request, an incoming
-- payment, a chain deposit, a payment by $tag on either side). Such a customer is closed, never deleted: a bank
-- keeps five years of records (BSA), and deleting the user would null the ledger's link to them.
CREATE OR REPLACE FUNCTION has_money_history(p_user_id uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
	SELECT EXISTS (SELECT 1 FROM postings p JOIN ledger_accounts a ON a.id = p.account_id
			WHERE a.user_id = p_user_id AND a.kind = 'wallet')
		OR EXISTS (SELECT 1 FROM transactions t WHERE t.user_id = p_user_id)
		OR EXISTS (SELECT 1 FROM transfer_requests r WHERE r.user_id = p_user_id)
		OR EXISTS (SELECT 1 FROM incoming_payments i WHERE i.user_id = p_user_id)
		OR EXISTS (SELECT 1 FROM chain_deposits d WHERE d.user_id = p_user_id)
		OR EXISTS (SELECT 1 FROM tag_payments g WHERE g.payer_id = p_user_id)
		OR EXISTS (SELECT 1 FROM tag_payments g WHERE g.payee_id = p_user_id)
$$;
--> statement-breakpoint
-- The first thing that keeps the account from closing, or NULL when it may close (a money movement in flight is
-- named before the hold or balance it makes, so the message says what to wait for): its name is the refusal's
-- closureBlocker (contract/closure.ts holds each one's message). The caller holds the user row and the wallet
-- locked, so a transfer, payment or request racing the closure either committed before (and is seen here) or
-- waits and then meets a closed account.
CREATE OR REPLACE FUNCTION closure_blocker(p_user_id uuid) RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
	v_balance bigint;
	v_held bigint;
BEGIN
	SELECT a.balance, a.held INTO v_balance, v_held FROM ledger_accounts a
		WHERE a.user_id = p_user_id AND a.kind = 'wallet';
	IF coalesce(v_balance, 0) < 0 THEN
		RETURN 'negative_balance';
	END IF;
	IF EXISTS (SELECT 1 FROM transfer_requests r
			WHERE r.user_id = p_user_id AND r.status IN ('pending', 'processing')) THEN
		RETURN 'transfer_pending';
	END IF;
	IF EXISTS (SELECT 1 FROM incoming_payments i
			WHERE i.user_id = p_user_id AND i.status IN ('pending', 'processing'))
		OR EXISTS (SELECT 1 FROM chain_deposits d WHERE d.user_id = p_user_id AND d.status IN ('pending', 'held'))
		OR EXISTS (SELECT 1 FROM transactions t WHERE t.user_id = p_user_id AND t.status IN ('initiated', 'pending', 'in_review', 'processing')) THEN
		RETURN 'incoming_pending';
	END IF;
	IF coalesce(v_held, 0) > 0 OR EXISTS (SELECT 1 FROM holds h JOIN ledger_accounts a ON a.id = h.account_id
			WHERE a.user_id = p_user_id AND h.status = 'open') THEN
		RETURN 'open_holds';
	END IF;
	-- Savings that hold money, or may still owe interest (a balance on its last accrued day, money moved since, a
	-- cent or more accrued): the customer closes it first (close_savings pays what it owes into checking). One
	-- that owes nothing is closed with the account.
	IF EXISTS (SELECT 1 FROM savings_accounts s JOIN ledger_accounts a ON a.id = s.account_id
			WHERE s.user_id = p_user_id AND s.closed_at IS NULL
				AND (a.balance <> 0 OR s.closing_balance <> 0
					OR EXISTS (SELECT 1 FROM postings p WHERE p.account_id = s.account_id
						AND p.created_at >= new_york_start(coalesce(s.accrued_through + 1, s.opened_on)))
					OR EXISTS (SELECT 1 FROM savings_interest i WHERE i.account_id = s.account_id
						AND i.credited_cents IS NULL AND i.accrued_micros + i.carry_in_micros >= 10000))) THEN
		RETURN 'savings_not_empty';
	END IF;
	IF coalesce(v_balance, 0) > 0 THEN
		RETURN 'balance_not_zero';
	END IF;
	IF EXISTS (SELECT 1 FROM transfer_schedules s
			WHERE s.user_id = p_user_id AND s.status IN ('active', 'paused')) THEN
		RETURN 'schedule_active';
	END IF;
	-- Two probes, one per side's partial index of open requests: an OR of the two scans every open request.
	IF EXISTS (SELECT 1 FROM money_requests m WHERE m.requester_id = p_user_id AND m.status = 'open')
			OR EXISTS (SELECT 1 FROM money_requests m WHERE m.payer_id = p_user_id AND m.status = 'open') THEN
		RETURN 'money_request_open';
	END IF;
	IF EXISTS (SELECT 1 FROM approvals a WHERE a.user_id = p_user_id AND a.status = 'pending') THEN
		RETURN 'approval_pending';
	END IF;
	IF EXISTS (SELECT 1 FROM compliance_cases c WHERE c.user_id = p_user_id AND c.status = 'open') THEN
		RETURN 'compliance_case_open';
	END IF;
	RETURN NULL;
END;
$$;
