import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Senders per address (decision 064): address_senders holds one row per (lower-cased address, customer) with the
// first and last transfer there, backfilled from the transfer requests already written (either spelling of the
// address; a transfer without a customer counts for none), then kept by triggers on insert, update and delete.
const A = "0xAbCdEf000000000000000000000000000000A054";
const B = "0x000000000000000000000000000000000000b054";
const transfer = `insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing,
    purpose, category, payment_method, crypto_address, limit_day, created_at)
  values ($1, 1000, 0, 1000, 'Step 0054', 'usdc', 'step', 'other', 'crypto', $2, '2024-01-01', $3) returning id`;
const SENDERS = `select address, user_id = $1 as first_customer,
    to_char(first_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as first_at,
    to_char(last_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as last_at
  from address_senders where user_id in ($1, $2) order by address, first_customer desc`;
const row = (address: string, first: boolean, from: string, to: string) => ({
  address,
  first_customer: first,
  first_at: from,
  last_at: to,
});

const step: MigrationStep = {
  async before(db) {
    const customer = async (tag: string) =>
      (
        await db.query<{ id: string }>(
          `insert into users (email, first_name, last_name, pillar_tag, password_hash)
           values ($1::text || '@example.test', 'Addy', 'Sender', $1, 'x') returning id`,
          [tag],
        )
      )[0]!.id;
    const [first, second] = [await customer("step0054a"), await customer("step0054b")];
    // The first customer paid A three times, in two spellings, and B once; the second paid A once.
    await db.query(transfer, [first, A, "2024-01-10T10:00Z"]);
    await db.query(transfer, [first, A.toLowerCase(), "2024-03-05T08:30Z"]);
    await db.query(transfer, [first, A, "2024-02-01T12:00Z"]);
    await db.query(transfer, [first, B, "2024-02-15T09:00Z"]);
    await db.query(transfer, [second, A, "2024-02-20T16:45Z"]);
    await db.query(transfer, [null, A, "2023-12-01T00:00Z"]);
    db.shared.set("0054.first", first);
    db.shared.set("0054.second", second);
  },
  async after(db) {
    const users = [db.shared.get("0054.first")!, db.shared.get("0054.second")!];
    const a = A.toLowerCase();
    const backfilled = [
      row(B, true, "2024-02-15 09:00", "2024-02-15 09:00"),
      row(a, true, "2024-01-10 10:00", "2024-03-05 08:30"),
      row(a, false, "2024-02-20 16:45", "2024-02-20 16:45"),
    ];
    expect(await db.query(SENDERS, users)).toEqual(backfilled);
    // A new transfer moves the last one on; deleting it (a repair) takes the row again from the transfers left.
    const [later] = await db.query<{ id: string }>(transfer, [
      users[0],
      A.toUpperCase().replace("0X", "0x"),
      "2024-04-01T07:00Z",
    ]);
    expect((await db.query(SENDERS, users))[1]).toEqual(row(a, true, "2024-01-10 10:00", "2024-04-01 07:00"));
    await db.query("delete from transfer_requests where id = $1", [later!.id]);
    expect(await db.query(SENDERS, users)).toEqual(backfilled);
    // Moved to the other customer: the first one's row for B goes (no transfer left there), the second gets one.
    await db.query("update transfer_requests set user_id = $2 where user_id = $1 and crypto_address = $3", [
      users[0],
      users[1],
      B,
    ]);
    expect(await db.query(SENDERS, users)).toEqual([
      row(B, false, "2024-02-15 09:00", "2024-02-15 09:00"),
      backfilled[1],
      backfilled[2],
    ]);
  },
};
export default step;
