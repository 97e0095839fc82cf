DROP INDEX "incoming_payments_created_idx";--> statement-breakpoint
DROP INDEX "transfer_requests_created_idx";--> statement-breakpoint
CREATE INDEX "account_requests_created_id_idx" ON "account_requests" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "incoming_payments_created_id_idx" ON "incoming_payments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "kyc_applications_created_id_idx" ON "kyc_applications" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_created_id_idx" ON "transactions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "transfer_requests_created_id_idx" ON "transfer_requests" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "transfer_requests_status_created_id_idx" ON "transfer_requests" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "users_created_id_idx" ON "users" USING btree ("created_at","id");