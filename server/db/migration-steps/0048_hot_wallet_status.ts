import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// hot_wallet_status (decision 058): what the payout worker last saw of the hot wallet, one row per chain and
// address, with a nonce alert that is a gap or a nonce used outside Pillar, or none.
const ADDRESS = "0x00000000000000000000000000000000000c0048";
const row = (chain: number, alert: string | null): [string, unknown[]] => [
  `insert into hot_wallet_status (chain_id, address, usdc_units, gas_wei, base_fee_wei, market_max_fee_wei,
       latest_nonce, pending_nonce, handed_out_nonce, nonce_alert, nonce_alert_nonce)
     values ($1, $2, 123456789000000000000, 5000000000000000, 30000000000, 60000000000, 7, 9, 8, $3, $4)`,
  [chain, ADDRESS, alert, alert === null ? null : 8],
];

const step: MigrationStep = {
  async after(db) {
    expect(await db.fails(...row(48, null))).toBeNull();
    expect(await db.fails(...row(4801, "gap"))).toBeNull();
    expect(await db.fails(...row(4802, "used_outside"))).toBeNull();
    const [seen] = await db.query<{ usdc: string; alert: string | null; fresh: boolean }>(
      `select usdc_units::text as usdc, nonce_alert as alert, observed_at > now() - interval '1 minute' as fresh
       from hot_wallet_status where chain_id = 48 and address = $1`,
      [ADDRESS],
    );
    // numeric(78, 0): a balance in USDC's smallest units past bigint's range is kept whole.
    expect(seen).toEqual({ usdc: "123456789000000000000", alert: null, fresh: true });

    // One row per chain and address: the worker's pass updates it, never adds a second.
    expect((await db.fails(...row(48, null)))?.code).toBe("23505");
    expect((await db.fails(...row(4803, "reorg")))?.code).toBe("23514");
    expect(
      (await db.fails("insert into hot_wallet_status (chain_id, address) values (4804, $1)", [ADDRESS]))
        ?.code,
    ).toBe("23502");
  },
};
export default step;
