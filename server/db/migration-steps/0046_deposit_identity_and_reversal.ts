import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// A deposit is one log of one transaction wherever a reorg mines it (decision 056): the key is (chain, hash,
// tx_log_index), not the block's log_index. A booked deposit a deep reorg took away is 'reversed' by an entry of its
// own and may turn pending again keeping its last credit; a wallet may be below zero by what it owes of one.
// Rows from before have no tx_log_index (the watcher fills it) and owe nothing.
const COLUMNS = `chain_id, tx_hash, log_index, block_number, block_hash, from_address, to_address, user_id, units,
  amount_cents, dust_units, status, entry_id, credited_at`;
const VALUES = `84532, $1, $2, 4600, '0xblock4600', '0xfrom', '0xdeposit46', $3, 15000000, 1500, 0, $4, $5,
  case when $5::uuid is null then null else now() end`;
/** A $15.00 deposit as the schema before holds it, and with its place in its transaction ($6). */
const OLD_DEPOSIT = `insert into chain_deposits (${COLUMNS}) values (${VALUES}) returning id`;
const DEPOSIT = `insert into chain_deposits (${COLUMNS}, tx_log_index) values (${VALUES}, $6)`;
const ENTRY = "insert into journal_entries (kind, description) values ($1, 'USDC deposit') returning id";

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0046@example.test', 'Dee', 'Positor', 'step0046', 'x') returning id`,
    );
    const u = user!.id;
    await db.query(
      "insert into ledger_accounts (code, kind, user_id, balance) values ($1, 'wallet', $2, 1500)",
      [`wallet:${u}`, u],
    );
    const [entry] = await db.query<{ id: string }>(ENTRY, ["deposit"]);
    const [credited] = await db.query<{ id: string }>(OLD_DEPOSIT, ["0xd1", 7, u, "credited", entry!.id]);
    const [pending] = await db.query<{ id: string }>(OLD_DEPOSIT, ["0xd2", 3, u, "pending", null]);
    db.shared.set("0046.user", u);
    db.shared.set("0046.entry", entry!.id);
    db.shared.set("0046.credited", credited!.id);
    db.shared.set("0046.pending", pending!.id);
  },
  async after(db) {
    const id = (k: string) => db.shared.get(`0046.${k}`)!;
    const rows = await db.query(
      `select status, tx_log_index, reversal_entry_id, reversed_at from chain_deposits where id = any($1::uuid[])
       order by log_index desc`,
      [[id("credited"), id("pending")]],
    );
    const untouched = { tx_log_index: null, reversal_entry_id: null, reversed_at: null };
    expect(rows).toEqual([
      { status: "credited", ...untouched },
      { status: "pending", ...untouched },
    ]);

    // The same log at another block position is the same deposit; another log at the same position is not.
    const u = id("user");
    expect(await db.fails(DEPOSIT, ["0xd3", 5, u, "pending", null, 0])).toBeNull();
    expect((await db.fails(DEPOSIT, ["0xd3", 9, u, "pending", null, 0]))?.code).toBe("23505");
    expect((await db.fails(DEPOSIT, ["0xd3", 11, u, "pending", null, -1]))?.code).toBe("23514");
    await db.query("savepoint two_logs");
    await db.query(DEPOSIT, ["0xd3", 5, u, "pending", null, 1]);
    await db.query("rollback to savepoint two_logs");

    // Reversed only with its reversal entry; pending again keeps the last credit only after a reversal.
    const [reversal] = await db.query<{ id: string }>(ENTRY, ["deposit_reversal"]);
    const set = (sql: string, params: unknown[]) =>
      db.fails(`update chain_deposits set ${sql} where id = $1`, params);
    expect((await set("status = 'reversed'", [id("credited")]))?.message).toContain(
      "chain_deposits_reversed",
    );
    const reverse = "status = 'reversed', reversal_entry_id = $2, reversed_at = now()";
    expect(await set(reverse, [id("credited"), reversal!.id])).toBeNull();
    expect(await set("status = 'pending'", [id("credited")])).toBeNull();
    const credit = await set("entry_id = $2", [id("pending"), id("entry")]);
    expect(credit?.message).toContain("chain_deposits_credited");

    const [wallet] = await db.query("select returned_owed::int from ledger_accounts where user_id = $1", [u]);
    expect(wallet).toEqual({ returned_owed: 0 });
    const owe = (balance: number, owed: number) =>
      db.fails("update ledger_accounts set balance = $2, returned_owed = $3 where user_id = $1", [
        u,
        balance,
        owed,
      ]);
    expect((await owe(-1, 0))?.code).toBe("23514");
    expect((await owe(-200, 199))?.code).toBe("23514");
    expect((await owe(0, -1))?.code).toBe("23514");
    expect(await owe(-200, 200)).toBeNull();
  },
};
export default step;
