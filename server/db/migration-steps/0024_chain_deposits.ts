import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// USDC deposits on chain (decision 028): the usdc_deposits system account, one deposit address per customer by a
// derivation index counted from 0 (lowercase hex only), the deposits the watcher saw (a log credited at most once;
// units split exactly into cents and dust; an entry exactly when credited), and how far each chain was read.
const TO = "0x00000000000000000000000000000000000d0024";
const addr = "insert into deposit_addresses (user_id, address) values ($1, $2) returning derivation_index";
const deposit = `insert into chain_deposits (chain_id, tx_hash, log_index, block_number, block_hash, from_address,
    to_address, user_id, units, amount_cents, dust_units, status, entry_id, credited_at)
  values (8453, $1, 3, 21000000, '0xb10c', '0x00000000000000000000000000000000000f4011', '${TO}', $2, $3, $4, $5, $6,
    $7, case when $7::uuid is not null then now() end) returning id`;

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
       values ('dara.0024@example.com', 'Dara', 'Chen', 'dara0024', 'x', true) returning id`,
    );
    db.shared.set("0024.user", user!.id);
  },
  async after(db) {
    const userId = db.shared.get("0024.user")!;
    const system = "select kind, user_id, balance::text from ledger_accounts where code = 'usdc_deposits'";
    expect(await db.query(system)).toEqual([{ kind: "system", user_id: null, balance: "0" }]);
    expect(await db.query(addr, [userId, TO])).toEqual([{ derivation_index: 0 }]);
    expect(await db.query(addr, [null, TO.replace("d0024", "d0025")])).toEqual([{ derivation_index: 1 }]);

    // $12.34 and 5678 units of dust: 12_345_678 units of a 6-decimal token. Pending, then one credited from
    // usdc_deposits to the customer's wallet by a balanced entry.
    const seen = (tx: string, split: number[], status: string, entry?: string) => [
      tx,
      userId,
      ...split,
      status,
      entry ?? null,
    ];
    const [pending] = await db.query<{ id: string }>(
      deposit,
      seen("0x0024a", [12345678, 1234, 5678], "pending"),
    );
    const [wallet] = await db.query<{ id: string }>(
      "insert into ledger_accounts (code, kind, user_id, balance) values ('wallet:' || $1, 'wallet', $1::uuid, 1000) returning id",
      [userId],
    );
    const [entry] = await db.query<{ id: string }>(
      "insert into journal_entries (kind, description) values ('usdc_deposit', 'USDC deposit 0x0024c') returning id",
    );
    await db.query(
      `insert into postings (entry_id, account_id, amount)
       values ($1, $2, 1000), ($1, (select id from ledger_accounts where code = 'usdc_deposits'), -1000)`,
      [entry!.id, wallet!.id],
    );
    const [credited] = await db.query<{ id: string }>(
      deposit,
      seen("0x0024c", [10000000, 1000, 0], "credited", entry!.id),
    );
    await db.query(
      "update journal_entries set reference_type = 'chain_deposit', reference_id = $2 where id = $1",
      [entry!.id, credited!.id],
    );
    db.shared.set("0024.pending", pending!.id);
    db.shared.set("0024.credited", credited!.id);
    db.shared.set("0024.wallet", wallet!.id);
    await db.query("insert into chain_watch_state (chain_id, next_block) values (8453, 21000001)");

    const refusals: [string, unknown[], string, string][] = [
      [addr, [null, TO.replace("d0024", "D0024")], "23514", "deposit_addresses_address_lowercase"],
      [addr, [userId, TO.replace("d0024", "d0026")], "23505", "deposit_addresses_user_id_key"],
      [addr, [null, TO], "23505", "deposit_addresses_address_key"],
      [deposit, seen("0x0024a", [12345678, 1234, 5678], "pending"), "23505", "chain_deposits_log_once"],
      [deposit, seen("0x0024b", [12345678, 1233, 5678], "pending"), "23514", "chain_deposits_split"],
      [deposit, seen("0x0024b", [100000, 10, 0], "credited"), "23514", "chain_deposits_credited"],
      [deposit, seen("0x0024b", [100000, 10, 0], "pending", entry!.id), "23514", "chain_deposits_credited"],
      [deposit, seen("0x0024b", [100000, 10, 0], "refunded"), "23514", "chain_deposits_status"],
      [
        "insert into chain_watch_state (chain_id, next_block) values (8453, 1)",
        [],
        "23505",
        "chain_watch_state_pkey",
      ],
    ];
    for (const [sql, params, code, name] of refusals) {
      expect(await db.fails(sql, params), name).toEqual({ code, message: expect.stringContaining(name) });
    }
  },
};
export default step;
