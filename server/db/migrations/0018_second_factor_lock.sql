-- Issue 26 item 6, decision 018: consecutive wrong second-factor proofs per account, counted in the database so
-- every instance sees the same count; at the limit locked_at is set and codes are refused until the owner proves
-- the e-mail (a password reset clears the row).
CREATE TABLE "second_factor_guards" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"locked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "second_factor_guards_failures_non_negative" CHECK ("second_factor_guards"."failures" >= 0)
);
--> statement-breakpoint
ALTER TABLE "second_factor_guards" ADD CONSTRAINT "second_factor_guards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
