-- Issue 30 sections 1 and 2 (decisions 024, 025): the applicant's date of birth (null on applications made
-- before it was asked: compliance sees them flagged, nobody is blocked), OFAC list versions loaded as whole
-- snapshots (one active at a time), and the cases that hits open.
ALTER TABLE "kyc_applications" ADD COLUMN "date_of_birth" date;
--> statement-breakpoint
CREATE TABLE "sanctions_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer NOT NULL,
	"source" text NOT NULL,
	"files" jsonb NOT NULL,
	"entry_count" integer NOT NULL,
	"name_count" integer NOT NULL,
	"address_count" integer NOT NULL,
	"loaded_by" uuid,
	"is_active" boolean DEFAULT false NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rescreened_at" timestamp with time zone,
	CONSTRAINT "sanctions_lists_source_check" CHECK ("sanctions_lists"."source" in ('cli', 'upload'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sanctions_lists_version_key" ON "sanctions_lists" USING btree ("version");--> statement-breakpoint
CREATE UNIQUE INDEX "sanctions_lists_one_active_key" ON "sanctions_lists" USING btree ("is_active") WHERE "sanctions_lists"."is_active";--> statement-breakpoint
CREATE TABLE "sanctions_entries" (
	"list_id" uuid NOT NULL,
	"source" text NOT NULL,
	"ent_num" integer NOT NULL,
	"name" text NOT NULL,
	"sdn_type" text NOT NULL,
	"programs" text NOT NULL,
	"birth_dates" jsonb NOT NULL,
	CONSTRAINT "sanctions_entries_pk" PRIMARY KEY ("list_id","source","ent_num")
);
--> statement-breakpoint
ALTER TABLE "sanctions_entries" ADD CONSTRAINT "sanctions_entries_list_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."sanctions_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "sanctions_names" (
	"list_id" uuid NOT NULL,
	"source" text NOT NULL,
	"ent_num" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"normalised" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sanctions_names" ADD CONSTRAINT "sanctions_names_list_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."sanctions_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sanctions_names_list_idx" ON "sanctions_names" USING btree ("list_id");--> statement-breakpoint
CREATE TABLE "sanctions_addresses" (
	"list_id" uuid NOT NULL,
	"source" text NOT NULL,
	"ent_num" integer NOT NULL,
	"currency" text NOT NULL,
	"address" text NOT NULL,
	"address_key" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sanctions_addresses" ADD CONSTRAINT "sanctions_addresses_list_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."sanctions_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sanctions_addresses_key_idx" ON "sanctions_addresses" USING btree ("list_id","address_key");--> statement-breakpoint
CREATE TABLE "compliance_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"decision_note" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "compliance_cases_status_check" CHECK ("compliance_cases"."status" in ('open', 'cleared', 'confirmed')),
	CONSTRAINT "compliance_cases_decided_consistent" CHECK (("compliance_cases"."status" = 'open') = ("compliance_cases"."decided_at" is null))
);
--> statement-breakpoint
ALTER TABLE "compliance_cases" ADD CONSTRAINT "compliance_cases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_cases_one_open_key" ON "compliance_cases" USING btree ("user_id") WHERE "compliance_cases"."status" = 'open';--> statement-breakpoint
CREATE INDEX "compliance_cases_queue_idx" ON "compliance_cases" USING btree ("status","opened_at","id");--> statement-breakpoint
CREATE TABLE "compliance_hits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"user_id" uuid,
	"dedupe_key" text NOT NULL,
	"screening_point" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject" text NOT NULL,
	"matched" text NOT NULL,
	"score" double precision NOT NULL,
	"list_version" integer NOT NULL,
	"list_source" text NOT NULL,
	"ent_num" integer NOT NULL,
	"programs" text NOT NULL,
	"transfer_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "compliance_hits_subject_type_check" CHECK ("compliance_hits"."subject_type" in ('name', 'address'))
);
--> statement-breakpoint
ALTER TABLE "compliance_hits" ADD CONSTRAINT "compliance_hits_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."compliance_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_hits_dedupe_key" ON "compliance_hits" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "compliance_hits_case_idx" ON "compliance_hits" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE INDEX "compliance_hits_transfer_idx" ON "compliance_hits" USING btree ("transfer_id");
