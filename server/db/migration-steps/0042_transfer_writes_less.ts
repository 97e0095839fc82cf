import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// A transfer request writes less under the wallet lock (decision 049): the open-holds index goes, and so do the
// foreign keys from a request to its hold and transaction and from a hold to its account, which could never fail;
// the foreign key from a request to its customer stays. (create_transfer_request is dropped to be made again from
// server/db/functions, which this runner does not apply.)
const ORPHANS = `with h as (
    insert into holds (account_id, amount, reference_type, reference_id)
    values (gen_random_uuid(), 100, 'transfer', 'step0042') returning id)
  insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing, purpose, category,
    payment_method, crypto_address, hold_id, transaction_id, limit_day)
  select $1, 100, 0, 100, 'Ora Orphan', 'CRYPTO', 'Test', 'other', 'crypto', '0x${"42".repeat(20)}', h.id,
    gen_random_uuid(), '2025-03-06' from h`;

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0042@example.test', 'Ora', 'Orphan', 'step0042', 'x') returning id`,
    );
    db.shared.set("0042.user", user!.id);
    // Before the migration the database checks each link.
    expect((await db.fails(ORPHANS, [user!.id]))?.code).toBe("23503");
  },
  async after(db) {
    const indexes = await db.query("select 1 from pg_indexes where indexname = 'holds_account_open_idx'");
    expect(indexes).toEqual([]);
    // The same rows are now written unchecked; rolled back, so no dangling row meets a later migration.
    await db.query("savepoint orphans");
    await db.query(ORPHANS, [db.shared.get("0042.user")]);
    await db.query("rollback to savepoint orphans");
    // Still checked: a request's customer.
    expect((await db.fails(ORPHANS, ["00000000-0000-4000-8000-000000000042"]))?.code).toBe("23503");
  },
};
export default step;
