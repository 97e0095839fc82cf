-- Issue 47 §2 (decision 053): a hit keeps why it scored what it did, and a re-screen after a list load is a job
-- the jobs room runs in batches, off the upload request.
--
-- The score's parts as the matcher answered them (name, phonetic, date of birth, listed type, weak alias):
-- what the hit card shows a reviewer. Null for hits filed before this migration and for address hits.
ALTER TABLE "compliance_hits" ADD COLUMN IF NOT EXISTS "score_parts" jsonb;
--> statement-breakpoint
-- One re-screen of every customer against one list version, queued by the load in its own transaction. The loop
-- (server/features/compliance/rescreen.ts) takes the oldest unfinished run, screens the customers after `cursor`
-- a batch at a time and moves the cursor in the batch's transaction: a kill -9 resumes where the last commit
-- left it. A run whose list is no longer active when its turn comes is superseded by the newer list's run.
CREATE TABLE IF NOT EXISTS "rescreen_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"list_id" uuid NOT NULL REFERENCES "sanctions_lists"("id") ON DELETE CASCADE,
	"status" text DEFAULT 'queued' NOT NULL,
	"cursor" uuid,
	"total" integer,
	"customers" integer DEFAULT 0 NOT NULL,
	"addresses" integer DEFAULT 0 NOT NULL,
	"new_hits" integer DEFAULT 0 NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "rescreen_runs_status_check" CHECK ("status" in ('queued', 'running', 'done', 'superseded'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "rescreen_runs_list_key" ON "rescreen_runs" ("list_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rescreen_runs_unfinished_idx" ON "rescreen_runs" ("queued_at") WHERE "status" in ('queued', 'running');
