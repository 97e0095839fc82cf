-- A payer can block a requester (issue 46 §30). A blocked requester's new requests to that payer are written as
-- usual but withheld: the payer never sees, hears or pays them, and the requester sees them waiting, as if the
-- payer had not answered yet, so a harasser is never told they were blocked.
CREATE TABLE "money_request_blocks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"payer_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"requester_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	-- The requester's $tag when blocked, shown in the payer's list even if it changes later.
	"requester_tag" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "money_request_blocks_two_parties" CHECK ("requester_id" <> "payer_id"),
	CONSTRAINT "money_request_blocks_pair" UNIQUE ("payer_id", "requester_id")
);
--> statement-breakpoint
CREATE INDEX "money_request_blocks_payer_idx" ON "money_request_blocks" ("payer_id", "created_at", "id");
--> statement-breakpoint
ALTER TABLE "money_requests" ADD COLUMN "withheld" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- The per-payer daily cap counts one requester's requests to one payer on a New York day.
CREATE INDEX "money_requests_pair_created_idx" ON "money_requests" ("requester_id", "payer_id", "created_at");
