import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// USDC payouts (decision 030): one payout per approved transfer, a nonce used once per chain and hot wallet, a
// signed or sent payout always has its nonce; every signed transaction is stored (a hash once) before it is
// broadcast; and the hot wallet's next nonce, one row per chain and address.
const refused = (code: string, name: string) => ({ code, message: expect.stringContaining(name) });
const HOT = "0x00000000000000000000000000000000000b0025";

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
       values ('ines.0025@example.com', 'Ines', 'Moreau', 'ines0025', 'x', true) returning id`,
    );
    const transfers = await db.query<{ id: string }>(
      `insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing, purpose,
         category, payment_method, crypto_address, status, limit_day)
       select $1, 2500 * g, 0, 2500 * g, 'Paul Moreau', 'CRYPTO', 'Rent', 'other', 'crypto',
         '0x00000000000000000000000000000000000a002' || g, 'processing', '2025-06-02'
       from generate_series(1, 2) g order by g returning id`,
      [user!.id],
    );
    db.shared.set("0025.transfers", transfers.map((t) => t.id).join(","));
  },
  async after(db) {
    const [first, second] = db.shared.get("0025.transfers")!.split(",");
    const payout = `insert into payouts (transfer_request_id, chain_id, to_address, units)
      values ($1, 8453, '0x00000000000000000000000000000000000a0021', $2) returning id, status, nonce`;
    const [p1] = await db.query<{ id: string }>(payout, [first, "25000000"]);
    expect(p1).toMatchObject({ status: "queued", nonce: null });
    expect(await db.fails(payout, [first, "25000000"])).toEqual(refused("23505", "payouts_one_per_transfer"));
    expect(await db.fails(payout, [second, "0"])).toEqual(refused("23514", "payouts_units_positive"));
    const sign =
      "update payouts set status = $2, from_address = $3, nonce = $4, signed_at = now() where id = $1";
    expect(await db.fails(sign, [p1!.id, "signed", HOT, null])).toEqual(
      refused("23514", "payouts_signed_has_nonce"),
    );
    expect(await db.fails(sign, [p1!.id, "mined", HOT, 7])).toEqual(refused("23514", "payouts_status"));
    await db.query(sign, [p1!.id, "signed", HOT, 7]);
    const [p2] = await db.query<{ id: string }>(payout, [second, "50000000"]);
    expect(await db.fails(sign, [p2!.id, "signed", HOT, 7])).toEqual(refused("23505", "payouts_nonce_once"));

    const attempt = `insert into payout_attempts (payout_id, kind, nonce, tx_hash, raw_tx, max_fee_per_gas,
      max_priority_fee_per_gas) values ($1, $2, 7, $3, '0x02f8', '30000000000', '1000000000')`;
    await db.query(attempt, [p1!.id, "transfer", "0x0025a"]);
    expect((await db.fails(attempt, [p1!.id, "cancel", "0x0025a"]))?.code).toBe("23505");
    expect(await db.fails(attempt, [p1!.id, "speed_up", "0x0025b"])).toEqual(
      refused("23514", "payout_attempts_kind"),
    );
    expect(
      (await db.fails(attempt, ["00000000-0000-4000-8000-000000000025", "transfer", "0x0025c"]))?.code,
    ).toBe("23503");

    const nonce = "insert into hot_wallet_nonces (chain_id, address, next_nonce) values (8453, $1, 8)";
    await db.query(nonce, [HOT]);
    expect(await db.fails(nonce, [HOT])).toEqual(refused("23505", "hot_wallet_nonces_pk"));
  },
};
export default step;
