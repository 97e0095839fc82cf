-- Pushed updates and the notification centre (issue 32, decision 034). user_events is each customer's short log
-- of "this changed" notices, numbered per user without gaps (user_event_counters holds the last number, and its
-- row lock orders a user's notices by commit), so a stream resumed with Last-Event-ID misses nothing still
-- kept. The notices are written by triggers (server/db/functions/user-events.sql) in the transaction that made
-- the change, whichever code path or worker made it. notifications is the centre's list, kept 13 months.
CREATE TABLE "user_event_counters" (
	"user_id" uuid PRIMARY KEY REFERENCES "users"("id") ON DELETE CASCADE,
	"last_id" bigint NOT NULL DEFAULT 0
);
--> statement-breakpoint
CREATE TABLE "user_events" (
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"id" bigint NOT NULL,
	"topics" text[] NOT NULL,
	"xact" xid8 NOT NULL DEFAULT pg_current_xact_id(),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("user_id", "id")
);
--> statement-breakpoint
CREATE INDEX "user_events_created_at_idx" ON "user_events" ("created_at");
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "notifications_kind" CHECK ("kind" in ('transfer_status', 'money_in', 'security', 'chat_reply', 'statement_ready', 'account_decision')),
	CONSTRAINT "notifications_title_length" CHECK (char_length("title") between 1 and 200),
	CONSTRAINT "notifications_body_length" CHECK (char_length("body") between 0 and 1000),
	CONSTRAINT "notifications_link_path" CHECK ("link" is null or "link" ~ '^/[a-z0-9/_?=&-]*$')
);
--> statement-breakpoint
CREATE INDEX "notifications_user_id_idx" ON "notifications" ("user_id", "id");
--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" ("user_id") WHERE "read_at" is null;
--> statement-breakpoint
CREATE INDEX "notifications_created_at_idx" ON "notifications" ("created_at");
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"in_app" boolean NOT NULL,
	"email" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("user_id", "kind"),
	CONSTRAINT "notification_preferences_kind" CHECK ("kind" in ('transfer_status', 'money_in', 'security', 'chat_reply', 'statement_ready', 'account_decision')),
	CONSTRAINT "notification_preferences_security_email" CHECK ("kind" <> 'security' or "email")
);
