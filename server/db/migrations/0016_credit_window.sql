-- Issue 26 item 5, maker-checker over a rolling 24 hours: an approval of a credit keeps the maker's and the
-- customer's window totals it was asked with, and a maker's recent credits are found by (actor, time).
ALTER TABLE "approvals" ADD COLUMN "maker_window_total" bigint;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "customer_window_total" bigint;--> statement-breakpoint
CREATE INDEX "journal_entries_actor_time_idx" ON "journal_entries" USING btree ("actor_id","created_at");