-- A scheduled run's transfer carries the run's own reference (decision 036, amended): 'schedule:<id>:<date>',
-- unique across all transfer requests, set by create_transfer_request under the wallet lock. The run's
-- Idempotency-Key is swept after RETENTION.idempotencyKeyDays; this reference never is, so a run retried after a
-- crash however late finds the transfer it made instead of making a second one.
ALTER TABLE "transfer_requests" ADD COLUMN "schedule_run_key" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_requests_schedule_run_key_idx" ON "transfer_requests" ("schedule_run_key")
	WHERE "schedule_run_key" IS NOT NULL;
--> statement-breakpoint
-- Runs made before this migration: the recorded ones by their row, the unrecorded ones by their idempotency record.
UPDATE "transfer_requests" t SET "schedule_run_key" = k.run_key
	FROM (
		SELECT r.transfer_id AS transfer_id, 'schedule:' || r.schedule_id || ':' || r.run_on::text AS run_key
			FROM "schedule_runs" r WHERE r.transfer_id IS NOT NULL
		UNION
		SELECT (i.response #>> '{transferRequest,id}')::uuid, i.key
			FROM "idempotency_keys" i WHERE i.key LIKE 'schedule:%' AND i.response #>> '{transferRequest,id}' IS NOT NULL
	) k
	WHERE t.id = k.transfer_id AND t.schedule_run_key IS NULL;
