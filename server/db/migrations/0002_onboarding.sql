CREATE TABLE "account_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kyc_application_id" uuid,
	"account_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"status_message" text,
	"admin_notes" text,
	"account_number" text,
	"routing_number" text,
	"approved_at" timestamp with time zone,
	"superseded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_requests_account_number_unique" UNIQUE("account_number"),
	CONSTRAINT "account_requests_status_check" CHECK ("account_requests"."status" in ('pending', 'in_review', 'approved', 'rejected')),
	CONSTRAINT "account_requests_account_number_check" CHECK ("account_requests"."account_number" ~ '^[1-9][0-9]{8}$')
);
--> statement-breakpoint
CREATE TABLE "kyc_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_type" text NOT NULL,
	"company_name" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip_code" text NOT NULL,
	"address" text NOT NULL,
	"ssn_ciphertext" text NOT NULL,
	"ssn_index" text NOT NULL,
	"ssn_last4" text NOT NULL,
	"driving_license_front" text,
	"driving_license_back" text,
	"llc_document" text,
	"ein_document" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"admin_notes" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" uuid,
	"superseded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kyc_applications_status_check" CHECK ("kyc_applications"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "kyc_applications_account_type_check" CHECK ("kyc_applications"."account_type" in ('personal', 'business'))
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"object_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"content_type" text,
	"size_bytes" integer,
	"storage_etag" text,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_object_key_unique" UNIQUE("object_key"),
	CONSTRAINT "uploads_status_check" CHECK ("uploads"."status" in ('pending', 'complete', 'rejected')),
	CONSTRAINT "uploads_size_check" CHECK ("uploads"."size_bytes" is null or "uploads"."size_bytes" between 1 and 10485760)
);
--> statement-breakpoint
ALTER TABLE "account_requests" ADD CONSTRAINT "account_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_requests" ADD CONSTRAINT "account_requests_kyc_application_id_kyc_applications_id_fk" FOREIGN KEY ("kyc_application_id") REFERENCES "public"."kyc_applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_applications" ADD CONSTRAINT "kyc_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_requests_user_id_idx" ON "account_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "account_requests_user_current_key" ON "account_requests" USING btree ("user_id") WHERE "account_requests"."superseded_at" is null;--> statement-breakpoint
CREATE INDEX "kyc_applications_user_id_idx" ON "kyc_applications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_applications_user_current_key" ON "kyc_applications" USING btree ("user_id") WHERE "kyc_applications"."superseded_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_applications_ssn_live_key" ON "kyc_applications" USING btree ("ssn_index") WHERE "kyc_applications"."superseded_at" is null and "kyc_applications"."status" <> 'rejected';--> statement-breakpoint
CREATE INDEX "uploads_user_id_idx" ON "uploads" USING btree ("user_id");