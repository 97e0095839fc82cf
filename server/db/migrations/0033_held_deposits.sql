-- Issue 30 (decision 039): a USDC deposit whose sender is on the active sanctions list is booked (usdc_deposits
-- → the customer's wallet) with an open hold for the whole amount, so nothing of it is available until
-- compliance decides; the deposit row keeps the hold and the case it waits on. Its sanctions hit names the
-- deposit. A restricted case's restriction can be lifted by a new decision, 'lift', proposed and approved by two
-- compliance members.
ALTER TABLE "chain_deposits" DROP CONSTRAINT "chain_deposits_status";
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_status"
	CHECK ("status" in ('pending', 'held', 'credited', 'below_cent'));
--> statement-breakpoint
ALTER TABLE "chain_deposits" DROP CONSTRAINT "chain_deposits_credited";
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_credited"
	CHECK (("status" in ('held', 'credited')) = ("entry_id" is not null));
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "hold_id" uuid REFERENCES "holds"("id");
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "case_id" uuid REFERENCES "compliance_cases"("id");
--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_held_has_hold"
	CHECK ("status" <> 'held' or ("hold_id" is not null and "case_id" is not null));
--> statement-breakpoint
CREATE INDEX "chain_deposits_held_case_idx" ON "chain_deposits" ("case_id") WHERE "status" = 'held';
--> statement-breakpoint
ALTER TABLE "compliance_hits" ADD COLUMN "deposit_id" uuid REFERENCES "chain_deposits"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "compliance_case_decisions" DROP CONSTRAINT "compliance_case_decisions_decision_check";
--> statement-breakpoint
ALTER TABLE "compliance_case_decisions" ADD CONSTRAINT "compliance_case_decisions_decision_check"
	CHECK ("decision" in ('clear', 'restrict', 'freeze', 'file', 'lift'));
