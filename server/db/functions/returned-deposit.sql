-- A reversed deposit the customer had already spent leaves the wallet's available balance below zero by
-- ledger_accounts.returned_owed (decision 056; the wallet CHECK allows exactly that much). At the end of every
-- transaction that moved such a wallet, what is owed shrinks to what is still missing: money that arrived pays it
-- back, and it never grows again but by a reversal (reverseDeposit, deposit-reversal.ts). Checked at commit, not per
-- statement: a capture closes its hold before it posts, and a per-statement shrink would see the hold gone and the
-- debit not yet made, and refuse the capture of a transfer the customer had sent before the reversal.
CREATE OR REPLACE FUNCTION settle_returned_owed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	UPDATE ledger_accounts SET returned_owed = greatest(0, held - balance)
		WHERE id = NEW.id AND returned_owed > greatest(0, held - balance);
	RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS ledger_accounts_returned_owed_shrinks ON ledger_accounts;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_accounts_returned_owed_shrinks
	AFTER UPDATE OF balance, held ON ledger_accounts
	DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW WHEN (NEW.returned_owed > 0)
	EXECUTE FUNCTION settle_returned_owed();
