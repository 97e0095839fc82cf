-- Transaction monitoring (issue 30 section 3, decision 031): the alerts the rules raise on money events, each with
-- its rule, score, whether it holds the customer's money out, and the evidence the rule saw, filed on the
-- customer's one open compliance case. The same rule on the same event never makes a second alert. Transfers
-- are looked up by address for the many-customers-to-one-address rule.
CREATE TABLE "monitoring_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL REFERENCES "compliance_cases"("id") ON DELETE CASCADE,
	"user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"rule" text NOT NULL,
	"score" double precision NOT NULL,
	"blocking" boolean NOT NULL,
	"event_kind" text NOT NULL,
	"event_id" uuid NOT NULL,
	"transfer_id" uuid,
	"evidence" jsonb NOT NULL,
	"dedupe_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitoring_alerts_event_kind_check" CHECK ("event_kind" in ('credit', 'deposit', 'transfer')),
	CONSTRAINT "monitoring_alerts_score_check" CHECK ("score" >= 0 and "score" <= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_alerts_dedupe_key" ON "monitoring_alerts" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "monitoring_alerts_case_idx" ON "monitoring_alerts" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE INDEX "monitoring_alerts_user_idx" ON "monitoring_alerts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "monitoring_alerts_queue_idx" ON "monitoring_alerts" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "transfer_requests_address_created_idx" ON "transfer_requests" USING btree (lower("crypto_address"),"created_at");
