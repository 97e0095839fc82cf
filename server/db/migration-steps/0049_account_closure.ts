import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Close, never delete (decision 059): users gains closed_at, closed_by, closure_reason and identity_erased_at, a
// check that a closure names who closed and that erasure comes only after closure, and the retention job's index
// of closed accounts whose identity is still kept.
const step: MigrationStep = {
  async before(db) {
    const [customer] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0049@example.test', 'Clara', 'Closer', 'step0049', 'x') returning id`,
    );
    const [staff] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash, staff_roles)
       values ('step0049-staff@example.test', 'Sam', 'Support', 'step0049staff', 'x', '{support}') returning id`,
    );
    db.shared.set("0049.customer", customer!.id);
    db.shared.set("0049.staff", staff!.id);
  },
  async after(db) {
    const customer = db.shared.get("0049.customer")!;
    const staff = db.shared.get("0049.staff")!;
    // A customer from before the migration is open, with nothing erased.
    const [open] = await db.query(
      "select closed_at, closed_by, closure_reason, identity_erased_at from users where id = $1",
      [customer],
    );
    expect(open).toEqual({
      closed_at: null,
      closed_by: null,
      closure_reason: null,
      identity_erased_at: null,
    });

    // Closed without a closer, or erased while open: refused.
    expect((await db.fails("update users set closed_at = now() where id = $1", [customer]))?.code).toBe(
      "23514",
    );
    expect((await db.fails("update users set closed_by = $2 where id = $1", [customer, staff]))?.code).toBe(
      "23514",
    );
    expect(
      (await db.fails("update users set identity_erased_at = now() where id = $1", [customer]))?.code,
    ).toBe("23514");

    // Closed by staff, then erased by the retention job: both accepted, the login row kept.
    expect(
      await db.fails(
        "update users set closed_at = now(), closed_by = $2, closure_reason = 'customer asked' where id = $1",
        [customer, staff],
      ),
    ).toBeNull();
    expect(
      await db.fails("update users set identity_erased_at = now() where id = $1", [customer]),
    ).toBeNull();
    const [closed] = await db.query(
      "select closed_by, closure_reason, identity_erased_at >= closed_at as erased_after from users where id = $1",
      [customer],
    );
    expect(closed).toEqual({ closed_by: staff, closure_reason: "customer asked", erased_after: true });
    // The retention job's queue: closed and not yet erased, oldest closure first.
    const [index] = await db.query<{ def: string }>(
      "select indexdef as def from pg_indexes where indexname = 'users_closed_unerased_idx'",
    );
    expect(index?.def).toMatch(
      /\(closed_at, id\) WHERE \(\(closed_at IS NOT NULL\) AND \(identity_erased_at IS NULL\)\)/,
    );
  },
};
export default step;
