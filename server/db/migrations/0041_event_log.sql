-- Issue 49: the one event log after commit. A money movement's SQL function writes one row here in its own
-- transaction (the outbox); the jobs room (server/jobs/) reads it afterwards, each consumer (monitoring,
-- notifications, mail, pushes) with its own cursor. Rows are read in (xact, id) order and only once every
-- transaction older than the reading snapshot's xmin has ended (server/jobs/consumer.ts): an identity alone is not
-- commit order, and a consumer reading "id > n" could skip a row that committed later with a lower id.
-- No foreign key: the row is written under the wallet lock, where a foreign-key check is a lock and a probe.
CREATE TABLE "events" (
	"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	"xact" xid8 NOT NULL DEFAULT pg_current_xact_id(),
	"kind" text NOT NULL,
	"user_id" uuid,
	"payload" jsonb NOT NULL,
	"created_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX "events_xact_id" ON "events" ("xact", "id");
--> statement-breakpoint
-- Where each consumer is: the last (xact, id) it handled. Its row lock, held while a batch runs, makes one
-- instance at a time run that consumer; the batch's effects and the cursor's move commit together.
CREATE TABLE "job_cursors" (
	"consumer" text PRIMARY KEY,
	"xact" xid8 NOT NULL DEFAULT '0',
	"event_id" bigint NOT NULL DEFAULT 0,
	"updated_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- An event a consumer could not handle after its retries: skipped, kept here for staff with the error, and
-- counted in /metrics (jobs_failed_events_total).
CREATE TABLE "job_failures" (
	"consumer" text NOT NULL,
	"event_id" bigint NOT NULL,
	"attempts" integer NOT NULL,
	"error" text NOT NULL,
	"created_at" timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY ("consumer", "event_id")
);
