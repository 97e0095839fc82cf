-- Issue 28 item 1, decision 019: the SQL functions are source files of their own (server/db/functions/*.sql),
-- applied by the migration runner after the migrations whenever a file's hash changes. create_transfer_request
-- takes one JSON object instead of 31 positional values, and create_transfer_requests an array of those objects
-- whose rows carry `detail` instead of `detail_cents`: a changed result type that CREATE OR REPLACE refuses, so
-- both old definitions go here and server/db/functions/create-transfer-request.sql defines them anew.
DROP FUNCTION IF EXISTS create_transfer_requests(jsonb);
--> statement-breakpoint
DROP FUNCTION IF EXISTS create_transfer_request(uuid, text, text, text, bigint, integer, boolean, uuid, uuid, uuid,
	bigint, bigint, text, text, text, text, text, text, timestamptz, jsonb, text, integer, text, text, text, text, text,
	boolean, text, text, text);
