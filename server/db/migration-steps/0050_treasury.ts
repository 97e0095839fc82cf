import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Treasury (decision 060): a deposit address is 'xpub' (every address from before) or 'create2' with its salt and
// factory; treasury_movements holds the hot wallet's sweeps, moves to cold and returns, one open sweep per
// address, one open move to cold per chain, one return per deposit; chain_deposits.returned_by names the return.
const HOT = "0x00000000000000000000000000000000000a0050";
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const movement = (
  kind: string,
  from: string,
  salt: string | null,
  deposit: string | null,
  status = "queued",
) =>
  [
    `insert into treasury_movements (chain_id, kind, status, from_address, to_address, salt, deposit_id, units)
     values (50, $1, $2, $3, $4, $5, $6, 1000000) returning id`,
    [kind, status, from, HOT, salt, deposit],
  ] as [string, unknown[]];

const step: MigrationStep = {
  async before(db) {
    await db.query("insert into deposit_addresses (address) values ($1)", [addr(0x50a)]);
    const [deposit] = await db.query<{ id: string }>(
      `insert into chain_deposits (chain_id, tx_hash, log_index, block_number, block_hash, from_address, to_address,
         units, amount_cents, dust_units, status)
       values (50, '0xstep0050', 0, 1, '0xblock', $1, $2, 12340000, 1234, 0, 'pending') returning id`,
      [addr(0x50f), addr(0x50a)],
    );
    db.shared.set("0050.deposit", deposit!.id);
  },
  async after(db) {
    const deposit = db.shared.get("0050.deposit")!;
    const [old] = await db.query("select kind, salt, factory from deposit_addresses where address = $1", [
      addr(0x50a),
    ]);
    expect(old).toEqual({ kind: "xpub", salt: null, factory: null });
    const address = "insert into deposit_addresses (address, kind, salt, factory) values ($1, $2, $3, $4)";
    expect(await db.fails(address, [addr(0x50b), "create2", "0x01", addr(0xfac)])).toBeNull();
    expect((await db.fails(address, [addr(0x50c), "create2", "0x02", null]))?.code).toBe("23514");
    expect((await db.fails(address, [addr(0x50d), "xpub", "0x03", null]))?.code).toBe("23514");

    // A sweep names its salt, a return its deposit; one open sweep per address and one return per deposit.
    expect(await db.fails(...movement("sweep", addr(0x50b), "0x01", null))).toBeNull();
    expect((await db.fails(...movement("sweep", addr(0x50b), "0x01", null)))?.code).toBe("23505");
    expect((await db.fails(...movement("sweep", addr(0x50e), null, null)))?.code).toBe("23514");
    expect((await db.fails(...movement("return", HOT, null, null)))?.code).toBe("23514");
    expect((await db.fails(...movement("to_cold", HOT, null, null, "signed")))?.code).toBe("23514");
    expect(await db.fails(...movement("to_cold", HOT, null, null))).toBeNull();
    expect((await db.fails(...movement("to_cold", HOT, null, null)))?.code).toBe("23505");
    const [back] = await db.query<{ id: string }>(...movement("return", HOT, null, deposit));
    expect((await db.fails(...movement("return", HOT, null, deposit)))?.code).toBe("23505");

    // The deposit points at its return, and only at a movement that exists.
    const returned = "update chain_deposits set returned_by = $2 where id = $1";
    expect((await db.fails(returned, [deposit, "00000000-0000-4000-8000-000000000050"]))?.code).toBe("23503");
    expect(await db.fails(returned, [deposit, back!.id])).toBeNull();
    const attempt = `insert into treasury_movement_attempts (movement_id, nonce, tx_hash, raw_tx, max_fee_per_gas,
       max_priority_fee_per_gas) values ($1, 5, '0xattempt0050', '0xraw', 2, 1)`;
    expect(await db.fails(attempt, [back!.id])).toBeNull();
    expect((await db.fails(attempt, [back!.id]))?.code).toBe("23505");
  },
};
export default step;
