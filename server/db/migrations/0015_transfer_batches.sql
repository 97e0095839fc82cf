-- Issue 16, transfers on one wallet: several transfer requests of one customer in one call, one lock and one commit.
-- The server gathers the requests that arrive for a wallet while its previous call is still running
-- (server/features/transfers/wallet-batches.ts) and sends them here in arrival order. Each element of p_calls is
-- the argument list of create_transfer_request (0010, 0014), in its order, as JSON; each runs exactly as a call
-- of its own would, after the ones before it in the same transaction, so it sees their holds, totals and
-- idempotency keys. One row per element comes back, numbered from 0. An error in any element rolls back all of
-- them; the server then runs each alone.
CREATE OR REPLACE FUNCTION create_transfer_requests(p_calls jsonb)
RETURNS TABLE (item integer, outcome text, status_code integer, response jsonb, detail_cents text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	c jsonb;
	v_item integer := 0;
BEGIN
	FOR c IN SELECT e.value FROM jsonb_array_elements(p_calls) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
		RETURN QUERY SELECT v_item, r.outcome, r.status_code, r.response, r.detail_cents
			FROM create_transfer_request(
				(c->>0)::uuid, c->>1, c->>2, c->>3, (c->>4)::bigint, (c->>5)::integer, (c->>6)::boolean,
				(c->>7)::uuid, (c->>8)::uuid, (c->>9)::uuid, (c->>10)::bigint, (c->>11)::bigint,
				c->>12, c->>13, c->>14, c->>15, c->>16, c->>17, (c->>18)::timestamptz, (c->>19)::jsonb,
				c->>20, (c->>21)::integer, c->>22, c->>23, c->>24, c->>25, c->>26,
				(c->>27)::boolean, c->>28, c->>29, c->>30
			) r;
		v_item := v_item + 1;
	END LOOP;
END;
$$;
