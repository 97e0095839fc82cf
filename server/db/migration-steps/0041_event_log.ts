import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// The outbox (decision 051): an event row is numbered by the database and stamped with its writing transaction's
// id (read in (xact, id) order); each consumer keeps a cursor starting at (0, 0), and an event it gave up on is
// kept once per consumer with its error.
const step: MigrationStep = {
  async after(db) {
    const [event] = await db.query<{ id: string; same_xact: boolean; kind: string; payload: unknown }>(
      `insert into events (kind, user_id, payload) values ('transfer_requested', gen_random_uuid(), '{"amount":2500}')
       returning id::text, xact = pg_current_xact_id() as same_xact, kind, payload`,
    );
    expect(event).toMatchObject({ same_xact: true, kind: "transfer_requested", payload: { amount: 2500 } });
    expect(Number(event!.id)).toBeGreaterThan(0);
    // The identity is the database's alone, and a payload is required.
    expect((await db.fails("insert into events (id, kind, payload) values (1, 'x', '{}')"))?.code).toBe(
      "428C9",
    );
    expect((await db.fails("insert into events (kind, payload) values ('x', null)"))?.code).toBe("23502");

    const [cursor] = await db.query(
      "insert into job_cursors (consumer) values ('step0041') returning xact::text, event_id::int",
    );
    expect(cursor).toEqual({ xact: "0", event_id: 0 });
    expect((await db.fails("insert into job_cursors (consumer) values ('step0041')"))?.code).toBe("23505");

    const FAILURE =
      "insert into job_failures (consumer, event_id, attempts, error) values ('step0041', $1, 5, 'boom')";
    expect(await db.fails(FAILURE, [event!.id])).toBeNull();
    expect((await db.fails(FAILURE, [event!.id]))?.code).toBe("23505");
  },
};
export default step;
