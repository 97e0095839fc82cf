-- Issue 47 §4 (decision 054): payments by $tag go through the monitoring rules on both sides, the payer's
-- (tag_out) and the payee's (tag_in), and an alert may name such a payment as the event it judged.
ALTER TABLE "monitoring_alerts" DROP CONSTRAINT IF EXISTS "monitoring_alerts_event_kind_check";
--> statement-breakpoint
ALTER TABLE "monitoring_alerts" ADD CONSTRAINT "monitoring_alerts_event_kind_check" CHECK ("event_kind" in ('credit', 'deposit', 'transfer', 'tag_out', 'tag_in'));
