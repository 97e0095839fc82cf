-- Scheduled and recurring transfers to a saved recipient (issue 32 §3; decision 036).
--
-- transfer_schedules: what the customer asked for. The recipient's name and address are copied at creation (and on
-- edit) so a run pays what the customer signed; recipient_id only ties the schedule to the address book (a removed
-- recipient leaves it NULL and the runs are skipped). Run n falls on the New York calendar date computed from
-- start_on, cadence and n (server/features/schedules/schedule-dates.ts); next_run_index / next_run_on say which run
-- is next (next_run_on NULL: none left). lease_until is the runner's claim on a due schedule, taken with
-- FOR UPDATE SKIP LOCKED and given back when the run is recorded; a runner that dies leaves it to expire.
CREATE TABLE "transfer_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"recipient_id" uuid REFERENCES "saved_recipients"("id") ON DELETE SET NULL,
	"recipient_name" text NOT NULL,
	"address" text NOT NULL,
	"amount" bigint NOT NULL,
	"purpose" text NOT NULL,
	"cadence" text NOT NULL,
	"start_on" date NOT NULL,
	"end_on" date,
	"status" text DEFAULT 'active' NOT NULL,
	"next_run_index" integer DEFAULT 0 NOT NULL,
	"next_run_on" date,
	"lease_until" timestamp with time zone,
	"request_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfer_schedules_amount_positive" CHECK ("amount" > 0),
	CONSTRAINT "transfer_schedules_cadence_known" CHECK ("cadence" IN ('once', 'weekly', 'every_two_weeks', 'monthly')),
	CONSTRAINT "transfer_schedules_status_known" CHECK ("status" IN ('active', 'paused', 'completed', 'cancelled')),
	CONSTRAINT "transfer_schedules_end_after_start" CHECK ("end_on" IS NULL OR "end_on" >= "start_on"),
	CONSTRAINT "transfer_schedules_purpose_length" CHECK (char_length("purpose") BETWEEN 1 AND 200),
	CONSTRAINT "transfer_schedules_next_index" CHECK ("next_run_index" >= 0),
	-- The form's key: a double submit of one form makes one schedule.
	CONSTRAINT "transfer_schedules_request_once" UNIQUE ("user_id", "request_key")
);
--> statement-breakpoint
CREATE INDEX "transfer_schedules_due_idx" ON "transfer_schedules" ("next_run_on", "id") WHERE "status" = 'active';
--> statement-breakpoint
CREATE INDEX "transfer_schedules_user_idx" ON "transfer_schedules" ("user_id", "created_at");
--> statement-breakpoint
-- One row per run date of a schedule, made or skipped: the unique key is what makes a run happen once whatever
-- the runner instances do; the transfer itself is kept once by its idempotency key (schedule id + run date).
CREATE TABLE "schedule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid NOT NULL REFERENCES "transfer_schedules"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"run_on" date NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"transfer_id" uuid REFERENCES "transfer_requests"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_runs_once" UNIQUE ("schedule_id", "run_on"),
	CONSTRAINT "schedule_runs_outcome_known" CHECK ("outcome" IN ('made', 'skipped')),
	CONSTRAINT "schedule_runs_skip_has_reason" CHECK ("outcome" = 'made' OR "reason" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX "schedule_runs_user_idx" ON "schedule_runs" ("user_id", "created_at");
