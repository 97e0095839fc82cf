ALTER TABLE "users" ADD COLUMN "staff_roles" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Every admin so far could do everything: they become owners.
UPDATE "users" SET "staff_roles" = ARRAY['owner']::text[] WHERE "is_admin";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_staff_roles_known" CHECK ("users"."staff_roles" <@ array['support', 'compliance', 'finance', 'owner']::text[]);--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "is_admin";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_admin" boolean GENERATED ALWAYS AS (cardinality(staff_roles) > 0) STORED NOT NULL;
