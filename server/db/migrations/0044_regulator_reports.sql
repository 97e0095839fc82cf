-- Issue 47 §5 (decision 055): what a regulator asks for. The SAR draft's FinCEN fields that Pillar does not
-- already hold (the subject's SSN, date of birth, address and phone come from the identity check and the
-- account): the filing type and the prior report it continues or corrects, whether a suspect is identified
-- (30 or 60 days), the suspicious-activity categories, the subject's ID document (its number sealed under
-- DATA_KEY like the SSN, with its last four for the screen) and occupation. One row per case, written by
-- compliance on the case page.
CREATE TABLE "compliance_sar_details" (
	"case_id" uuid PRIMARY KEY NOT NULL REFERENCES "compliance_cases"("id") ON DELETE CASCADE,
	"filing_type" text DEFAULT 'initial' NOT NULL,
	"prior_report_id" text,
	"prior_filed_on" date,
	"subject_identified" boolean DEFAULT true NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"other_category" text,
	"id_type" text,
	"id_other_type" text,
	"id_number_ciphertext" text,
	"id_number_last4" text,
	"id_issuer_state" text,
	"id_issuer_country" text,
	"occupation" text,
	"updated_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "compliance_sar_details_filing_type_check" CHECK ("filing_type" in ('initial', 'continuing', 'correction')),
	CONSTRAINT "compliance_sar_details_prior_check" CHECK (("filing_type" = 'initial') = ("prior_report_id" is null)),
	CONSTRAINT "compliance_sar_details_id_type_check"
		CHECK ("id_type" is null or "id_type" in ('drivers_license', 'passport', 'alien_registration', 'other')),
	CONSTRAINT "compliance_sar_details_id_number_check"
		CHECK (("id_number_ciphertext" is null) = ("id_number_last4" is null))
);
--> statement-breakpoint
-- 31 CFR 501.603-604: a blocked or rejected transaction is reported to OFAC within 10 business days. One row per
-- approved block or reject that falls under OFAC's rules, written in the approval's transaction, with what the
-- report and the annual report of blocked property need kept as it was then (a customer deleted later leaves
-- blocked property behind); compliance marks it filed with OFAC's reference.
CREATE TABLE "ofac_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"case_id" uuid NOT NULL REFERENCES "compliance_cases"("id") ON DELETE CASCADE,
	"decision_id" uuid NOT NULL REFERENCES "compliance_case_decisions"("id") ON DELETE CASCADE,
	"transfer_id" uuid REFERENCES "transfer_requests"("id") ON DELETE SET NULL,
	"user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"amount" bigint NOT NULL,
	"owner_name" text NOT NULL,
	"owner_address" text,
	"counterparty_name" text NOT NULL,
	"counterparty_address" text,
	"programs" text NOT NULL,
	"list_entries" text NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"decided_on" date NOT NULL,
	"due_on" date NOT NULL,
	"filed_on" date,
	"filed_reference" text,
	"filed_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"filed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ofac_reports_decision_key" UNIQUE ("decision_id"),
	CONSTRAINT "ofac_reports_kind_check" CHECK ("kind" in ('blocked', 'rejected')),
	CONSTRAINT "ofac_reports_amount_check" CHECK ("amount" > 0),
	CONSTRAINT "ofac_reports_filed_consistent"
		CHECK (("filed_at" is null) = ("filed_reference" is null) and ("filed_at" is null) = ("filed_on" is null))
);
--> statement-breakpoint
CREATE INDEX "ofac_reports_due_idx" ON "ofac_reports" ("due_on", "id");
--> statement-breakpoint
CREATE INDEX "ofac_reports_blocked_idx" ON "ofac_reports" ("decided_on") WHERE "kind" = 'blocked';
--> statement-breakpoint
-- Blocks and sanctions rejects approved before this migration (decision 048 kept only their due day on the
-- decision) become reports too, so the list and the annual report miss none.
INSERT INTO "ofac_reports" ("kind", "case_id", "decision_id", "transfer_id", "user_id", "amount", "owner_name",
	"owner_address", "counterparty_name", "counterparty_address", "programs", "list_entries", "decided_at",
	"decided_on", "due_on")
SELECT
	CASE WHEN d."decision" = 'block_transfer' THEN 'blocked' ELSE 'rejected' END,
	d."case_id", d."id", t."id", t."user_id", t."amount",
	coalesce(nullif(trim(u."first_name" || ' ' || u."last_name"), ''), 'Deleted customer'),
	(SELECT k."address" FROM "kyc_applications" k WHERE k."user_id" = t."user_id" AND k."superseded_at" IS NULL),
	t."recipient_name", t."crypto_address",
	coalesce((SELECT string_agg(DISTINCT h."programs", '; ') FROM "compliance_hits" h WHERE h."case_id" = d."case_id"), ''),
	coalesce((SELECT string_agg(DISTINCT h."list_source" || ' #' || h."ent_num", '; ') FROM "compliance_hits" h
		WHERE h."case_id" = d."case_id"), ''),
	d."decided_at", (d."decided_at" AT TIME ZONE 'America/New_York')::date, d."report_due_on"
FROM "compliance_case_decisions" d
JOIN "transfer_requests" t ON t."id" = d."transfer_id"
LEFT JOIN "users" u ON u."id" = t."user_id"
WHERE d."status" = 'approved' AND d."report_due_on" IS NOT NULL
	AND d."decision" IN ('block_transfer', 'reject_transfer')
	AND (d."decision" = 'block_transfer' OR EXISTS (SELECT 1 FROM "compliance_hits" h WHERE h."case_id" = d."case_id"));
