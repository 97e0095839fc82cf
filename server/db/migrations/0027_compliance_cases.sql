-- Issue 30 section 4 (decision 032): a case's work — who it is assigned to, comments, documents, related
-- customers, the SAR narrative — and its decisions, each proposed by one compliance member and approved or
-- rejected by another. A case now ends cleared, restricted (no money out), frozen or filed; 'confirmed' stays
-- for the cases decided before this migration.
ALTER TABLE "compliance_cases" DROP CONSTRAINT "compliance_cases_status_check";
--> statement-breakpoint
ALTER TABLE "compliance_cases" ADD CONSTRAINT "compliance_cases_status_check"
	CHECK ("status" in ('open', 'cleared', 'confirmed', 'restricted', 'frozen', 'filed'));
--> statement-breakpoint
ALTER TABLE "compliance_cases" ADD COLUMN "assigned_to" uuid REFERENCES "users"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "compliance_cases" ADD COLUMN "narrative" text DEFAULT '' NOT NULL;
--> statement-breakpoint
CREATE INDEX "compliance_cases_user_status_idx" ON "compliance_cases" USING btree ("user_id", "status");
--> statement-breakpoint
CREATE TABLE "compliance_case_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL REFERENCES "compliance_cases"("id") ON DELETE CASCADE,
	"author_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "compliance_case_comments_case_idx" ON "compliance_case_comments" USING btree ("case_id", "created_at");
--> statement-breakpoint
CREATE TABLE "compliance_case_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL REFERENCES "compliance_cases"("id") ON DELETE CASCADE,
	"upload_id" uuid NOT NULL REFERENCES "uploads"("id") ON DELETE CASCADE,
	"title" text NOT NULL,
	"added_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_case_documents_upload_key" ON "compliance_case_documents" USING btree ("case_id", "upload_id");
--> statement-breakpoint
CREATE INDEX "compliance_case_documents_upload_idx" ON "compliance_case_documents" USING btree ("upload_id");
--> statement-breakpoint
CREATE TABLE "compliance_case_links" (
	"case_id" uuid NOT NULL REFERENCES "compliance_cases"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"note" text NOT NULL,
	"added_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "compliance_case_links_pk" PRIMARY KEY ("case_id", "user_id")
);
--> statement-breakpoint
CREATE TABLE "compliance_case_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL REFERENCES "compliance_cases"("id") ON DELETE CASCADE,
	"decision" text NOT NULL,
	"note" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"maker_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"checker_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"checker_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "compliance_case_decisions_decision_check" CHECK ("decision" in ('clear', 'restrict', 'freeze', 'file')),
	CONSTRAINT "compliance_case_decisions_status_check" CHECK ("status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "compliance_case_decisions_decided_consistent" CHECK (("status" = 'pending') = ("decided_at" is null)),
	CONSTRAINT "compliance_case_decisions_two_people" CHECK ("checker_id" is null or "checker_id" <> "maker_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_case_decisions_one_pending_key" ON "compliance_case_decisions" USING btree ("case_id") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "compliance_case_decisions_case_idx" ON "compliance_case_decisions" USING btree ("case_id", "created_at");
