-- Issue 46 (decision 048): a payment to a listed person is blocked, not returned. Compliance decides a held
-- transfer by two members like every case decision: reject_transfer gives the money back, block_transfer moves
-- it to the blocked property account (a system account: no cached balance); either must be reported to OFAC by
-- report_due_on (10 business days). The decision names its transfer.
INSERT INTO "ledger_accounts" ("code", "kind") VALUES ('blocked_funds', 'system') ON CONFLICT ("code") DO NOTHING;
--> statement-breakpoint
ALTER TABLE "compliance_case_decisions" DROP CONSTRAINT "compliance_case_decisions_decision_check";
--> statement-breakpoint
ALTER TABLE "compliance_case_decisions" ADD CONSTRAINT "compliance_case_decisions_decision_check"
	CHECK ("decision" in ('clear', 'restrict', 'freeze', 'file', 'lift', 'reject_transfer', 'block_transfer'));
--> statement-breakpoint
ALTER TABLE "compliance_case_decisions" ADD COLUMN "transfer_id" uuid REFERENCES "transfer_requests"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "compliance_case_decisions" ADD COLUMN "report_due_on" date;
--> statement-breakpoint
ALTER TABLE "compliance_case_decisions" ADD CONSTRAINT "compliance_case_decisions_transfer_only_for_transfers"
	CHECK ("transfer_id" is null or "decision" in ('reject_transfer', 'block_transfer'));
