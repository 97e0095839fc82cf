import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// A payout records how deep its transaction is as the payout worker last read it: 0 on payouts that existed
// before (a completed one reads as fully confirmed whatever it holds), never negative, never null.
const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0036@example.test', 'Pat', 'Payout', 'step0036', 'x') returning id`,
    );
    const [transfer] = await db.query<{ id: string }>(
      `insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing, purpose,
         category, payment_method, crypto_address, status, limit_day)
       values ($1, 4000, 0, 4000, 'Kim Lee', 'CRYPTO', 'Gift', 'other', 'crypto', $2, 'completed', '2025-02-10')
       returning id`,
      [user!.id, `0x${"ef".repeat(20)}`],
    );
    const [payout] = await db.query<{ id: string }>(
      `insert into payouts (transfer_request_id, chain_id, from_address, to_address, units, status, nonce, mined_hash,
         mined_block, settled_at) values ($1, 84532, $2, $3, 40000000, 'completed', 12, '0xmined0036', 1000, now())
       returning id`,
      [transfer!.id, `0x${"01".repeat(20)}`, `0x${"ef".repeat(20)}`],
    );
    db.shared.set("0036.payout", payout!.id);
  },
  async after(db) {
    const id = db.shared.get("0036.payout")!;
    const [row] = await db.query<{ confirmations: number }>(
      "select confirmations from payouts where id = $1",
      [id],
    );
    expect(row).toEqual({ confirmations: 0 });
    const set = "update payouts set confirmations = $2 where id = $1";
    expect((await db.fails(set, [id, -1]))?.code).toBe("23514");
    expect((await db.fails(set, [id, null]))?.code).toBe("23502");
    expect(await db.fails(set, [id, 3])).toBeNull();
  },
};
export default step;
