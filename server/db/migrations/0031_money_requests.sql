-- "Request money" from a $tag (issue 32 §4, decision 037): a customer asks another, by $tag, for an amount. The
-- payer pays it (a tag payment, through the pay-by-tag path, recorded in tag_payment_id) or declines it; the
-- requester may cancel it while it is open. A request is paid at most once: the payment locks the row, finds it
-- open and records its payment in the same transaction, and tag_payment_id is unique.
CREATE TABLE "money_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"requester_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"payer_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"requester_tag" text NOT NULL,
	"payer_tag" text NOT NULL,
	"amount" bigint NOT NULL,
	"note" text,
	"status" text DEFAULT 'open' NOT NULL,
	"tag_payment_id" uuid UNIQUE REFERENCES "tag_payments"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "money_requests_amount_positive" CHECK ("amount" > 0),
	CONSTRAINT "money_requests_two_parties" CHECK ("requester_id" <> "payer_id"),
	CONSTRAINT "money_requests_note_length" CHECK ("note" IS NULL OR char_length("note") BETWEEN 1 AND 140),
	CONSTRAINT "money_requests_status_known" CHECK ("status" IN ('open', 'paid', 'declined', 'cancelled')),
	CONSTRAINT "money_requests_paid_has_payment" CHECK (("status" = 'paid') = ("tag_payment_id" IS NOT NULL)),
	CONSTRAINT "money_requests_decided_dated" CHECK (("status" = 'open') = ("decided_at" IS NULL))
);
--> statement-breakpoint
CREATE INDEX "money_requests_payer_idx" ON "money_requests" ("payer_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "money_requests_requester_idx" ON "money_requests" ("requester_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "money_requests_open_pair_idx" ON "money_requests" ("requester_id", "payer_id") WHERE "status" = 'open';
--> statement-breakpoint
-- The notification centre's new kind: requests to pay and their answers.
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK ("kind" in ('transfer_status', 'money_in', 'security', 'chat_reply', 'statement_ready', 'account_decision', 'money_request'));
--> statement-breakpoint
ALTER TABLE "notification_preferences" DROP CONSTRAINT "notification_preferences_kind";
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_kind" CHECK ("kind" in ('transfer_status', 'money_in', 'security', 'chat_reply', 'statement_ready', 'account_decision', 'money_request'));
