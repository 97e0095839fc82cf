CREATE TABLE "saved_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_recipients_name_length" CHECK (char_length("saved_recipients"."name") between 1 and 60),
	CONSTRAINT "saved_recipients_address_length" CHECK (char_length("saved_recipients"."address") between 32 and 100)
);
--> statement-breakpoint
ALTER TABLE "saved_recipients" ADD CONSTRAINT "saved_recipients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_recipients_user_address_key" ON "saved_recipients" USING btree ("user_id",lower("address"));