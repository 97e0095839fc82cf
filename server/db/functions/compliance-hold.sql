-- What a compliance case does to a customer's money, the one copy (decision 032). compliance_restricted: a
-- case decided "restrict" closes the send-money gate, so can_send_money refuses
-- new transfers. compliance_hold: while a case is open, or after any decision but "clear", a transfer already
-- made stays held; releasing it (update-transfer-status) refuses, and so does the customer's own cancel: a payment
-- to a listed person is blocked, not returned; compliance rejects or blocks it (decision 048). Staff's cancel gives
-- the money back and is not money leaving. A frozen account is refused by the existing freeze (users.frozen_at).
CREATE OR REPLACE FUNCTION compliance_restricted(p_user_id uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
	SELECT EXISTS (SELECT 1 FROM compliance_cases c
		WHERE c.user_id = p_user_id AND c.status = 'restricted')
$$;
--> statement-breakpoint
-- An open case holds once it has a sanctions hit or a blocking monitoring alert; one opened only by alerts that
-- do not block asks compliance to look without stopping the customer's money (decision 031).
CREATE OR REPLACE FUNCTION compliance_hold(p_user_id uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
	SELECT EXISTS (SELECT 1 FROM compliance_cases c
		WHERE c.user_id = p_user_id AND (
			c.status IN ('confirmed', 'restricted', 'frozen', 'filed')
			OR (c.status = 'open' AND (
				EXISTS (SELECT 1 FROM compliance_hits h WHERE h.case_id = c.id)
				OR EXISTS (SELECT 1 FROM monitoring_alerts a WHERE a.case_id = c.id AND a.blocking)))))
$$;
