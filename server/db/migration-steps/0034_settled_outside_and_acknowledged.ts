import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// A payout settled outside Pillar is completed without a nonce, naming the approval that recorded it and the
// outside transaction (once per chain); a reconciliation item gets a fingerprint (the hot wallet's by its gap, not
// its balance), and an acknowledgment names a difference by it, once per chain (decision 040).
const TRANSFER = `insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing,
  purpose, category, payment_method, crypto_address, limit_day)
  values ($1, 2500, 0, 2500, 'Grace Hopper', 'CRYPTO', 'Rent', 'other', 'crypto', '0x${"ab".repeat(20)}', '2025-03-03')
  returning id`;
const PAYOUT = `insert into payouts (transfer_request_id, chain_id, to_address, units, status, nonce, settled_outside_by,
  outside_tx_hash) values ($1, 84532, '0x${"ab".repeat(20)}', 25000000, $2, $3, $4, $5)`;

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0034@example.test', 'Ada', 'Lovelace', 'step0034', 'x') returning id`,
    );
    db.shared.set("0034.user", user!.id);
    const [report] = await db.query<{ id: string }>(
      "insert into reconciliation_reports (chain_id, trigger, status) values (84532, 'scheduled', 'differences') returning id",
    );
    const items = await db.query<{ id: string }>(
      `insert into reconciliation_items (report_id, area, kind, outcome, tx_hash, reference, chain_units, ledger_units, detail)
       values ($1, 'hot_wallet', 'balance', 'difference', null, '0xhot', 93000000, 100000000, 'Short'),
              ($1, 'payouts', 'payout_mismatch', 'difference', '0xfeed', 'payout:1', 5, 7, 'Mismatch')
       returning id`,
      [report!.id],
    );
    db.shared.set("0034.items", items.map((i) => i.id).join(","));
  },
  async after(db) {
    const [hot, payout] = db.shared.get("0034.items")!.split(",");
    const fingerprints = await db.query<{ id: string; fingerprint: string }>(
      "select id::text, fingerprint from reconciliation_items where id = any($1::bigint[]) order by id",
      [[hot, payout]],
    );
    expect(fingerprints).toEqual([
      { id: hot, fingerprint: "hot_wallet|balance||0xhot|-7000000" },
      { id: payout, fingerprint: "payouts|payout_mismatch|0xfeed|payout:1|5|7" },
    ]);

    const user = db.shared.get("0034.user")!;
    const [approval] = await db.query<{ id: string }>(
      `insert into approvals (kind, payload, before, after, reason, status, maker_id, maker_role, checker_id,
         checker_role, decided_at) values ('payout_settled_outside', '{}', '{}', '{}', 'Paid from cold wallet',
         'approved', gen_random_uuid(), 'finance', gen_random_uuid(), 'owner', now()) returning id`,
    );
    const transfer = async () => (await db.query<{ id: string }>(TRANSFER, [user]))[0]!.id;
    // Completed without a nonce: allowed only when settled outside, with the outside hash once per chain.
    expect(
      await db.fails(PAYOUT, [await transfer(), "completed", null, approval!.id, "0xoutside"]),
    ).toBeNull();
    const dupe = await db.fails(PAYOUT, [await transfer(), "completed", null, approval!.id, "0xoutside"]);
    expect(dupe?.code).toBe("23505");
    const t = await transfer();
    expect((await db.fails(PAYOUT, [t, "completed", null, null, null]))?.message).toContain(
      "payouts_signed_has_nonce",
    );
    expect((await db.fails(PAYOUT, [t, "sent", null, approval!.id, null]))?.message).toContain(
      "payouts_outside_is_completed",
    );
    expect((await db.fails(PAYOUT, [t, "completed", 4, null, "0xother"]))?.message).toContain(
      "payouts_outside_hash_recorded",
    );
    expect((await db.fails(PAYOUT, [t, "completed", null, user, null]))?.code).toBe("23503");

    const ACK = `insert into reconciliation_acknowledgments (chain_id, fingerprint, area, kind, item_id, reason,
      acknowledged_by) values (84532, 'hot_wallet|balance||0xhot|-7000000', 'hot_wallet', 'balance', $1, $2, $3)`;
    expect((await db.fails(ACK, [hot, "   ", user]))?.code).toBe("23514");
    expect(await db.fails(ACK, [hot, "Treasury sweep, ticket FIN-12", user])).toBeNull();
    expect((await db.fails(ACK, [payout, "Again", user]))?.code).toBe("23505");
  },
};
export default step;
