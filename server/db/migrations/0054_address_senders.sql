-- Issue 50 (decision 064): the many-to-one rule reads the customers who paid an address from a table of senders
-- per address, one row per (address, customer) with their first and last transfer there, instead of every
-- transfer to the address in its window (an exchange's address had 14,000 of them per transfer judged). A trigger
-- keeps it on every insert of a transfer request, whichever path writes one (any status: an attempt counts, as
-- the rule always read them), in the transfer's own transaction; the rule itself runs after the commit in the
-- monitoring consumer, and no blocking rule reads it. The row is the customer's own (keyed by them too), so
-- customers paying one address never wait on each other's row.
CREATE TABLE "address_senders" (
	"address" text NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "address_senders_pkey" PRIMARY KEY ("address", "user_id")
);
--> statement-breakpoint
CREATE INDEX "address_senders_address_last_idx" ON "address_senders" ("address", "last_at");
--> statement-breakpoint
CREATE INDEX "address_senders_user_idx" ON "address_senders" ("user_id");
--> statement-breakpoint
CREATE FUNCTION "address_senders_record"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO address_senders (address, user_id, first_at, last_at)
		VALUES (lower(NEW.crypto_address), NEW.user_id, NEW.created_at, NEW.created_at)
		ON CONFLICT (address, user_id) DO UPDATE
			SET first_at = least(address_senders.first_at, excluded.first_at),
				last_at = greatest(address_senders.last_at, excluded.last_at);
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "address_senders_record" AFTER INSERT ON "transfer_requests"
	FOR EACH ROW WHEN (NEW.user_id IS NOT NULL) EXECUTE FUNCTION "address_senders_record"();
--> statement-breakpoint
-- No path of the bank moves a transfer request to another customer, address or time, or deletes one; should a
-- repair do it, the customer's row for that address is taken again from their transfers there (a few rows).
CREATE FUNCTION "address_senders_retake"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	v_first timestamptz;
	v_last timestamptz;
	v_pair record;
BEGIN
	FOR v_pair IN
		SELECT DISTINCT p.address, p.user_id FROM (VALUES
			(lower(OLD.crypto_address), OLD.user_id),
			(CASE WHEN TG_OP = 'UPDATE' THEN lower(NEW.crypto_address) END, CASE WHEN TG_OP = 'UPDATE' THEN NEW.user_id END)
		) AS p(address, user_id)
		WHERE p.user_id IS NOT NULL
	LOOP
		SELECT min(created_at), max(created_at) INTO v_first, v_last FROM transfer_requests
			WHERE user_id = v_pair.user_id AND lower(crypto_address) = v_pair.address;
		IF v_first IS NULL THEN
			DELETE FROM address_senders WHERE address = v_pair.address AND user_id = v_pair.user_id;
		ELSE
			INSERT INTO address_senders (address, user_id, first_at, last_at)
				VALUES (v_pair.address, v_pair.user_id, v_first, v_last)
				ON CONFLICT (address, user_id) DO UPDATE SET first_at = v_first, last_at = v_last;
		END IF;
	END LOOP;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "address_senders_retake" AFTER UPDATE OF "user_id", "crypto_address", "created_at" OR DELETE
	ON "transfer_requests" FOR EACH ROW EXECUTE FUNCTION "address_senders_retake"();
--> statement-breakpoint
-- The rows from before the trigger, a few thousand customers per transaction: a transfer of a customer in the
-- batch being written waits for that batch only (its row is written uncommitted), not for the whole backfill.
-- Merging (earliest first, latest last) makes it safe to run again after a kill, and alongside the trigger.
CREATE PROCEDURE "address_senders_backfill"(p_batch integer) LANGUAGE plpgsql AS $$
DECLARE
	v_from uuid;
	v_to uuid;
BEGIN
	LOOP
		-- The batch's last customer; none when fewer than a batch are left: the last batch has no upper bound.
		SELECT id INTO v_to FROM users WHERE v_from IS NULL OR id > v_from ORDER BY id OFFSET p_batch - 1 LIMIT 1;
		INSERT INTO address_senders (address, user_id, first_at, last_at)
			SELECT lower(crypto_address), user_id, min(created_at), max(created_at)
			FROM transfer_requests
			WHERE (v_from IS NULL OR user_id > v_from) AND (v_to IS NULL OR user_id <= v_to) AND user_id IS NOT NULL
			GROUP BY 1, 2
			ON CONFLICT (address, user_id) DO UPDATE
				SET first_at = least(address_senders.first_at, excluded.first_at),
					last_at = greatest(address_senders.last_at, excluded.last_at);
		COMMIT;
		EXIT WHEN v_to IS NULL;
		v_from := v_to;
	END LOOP;
END;
$$;
--> statement-breakpoint
-- pillar:outside-transaction
CALL "address_senders_backfill"(2000);
--> statement-breakpoint
DROP PROCEDURE "address_senders_backfill"(integer);
