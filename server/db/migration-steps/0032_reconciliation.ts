import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Reconciliation of the chain with the ledger (decision 038): the token's Transfer logs kept once each (chain,
// transaction, log), how far they were read per hot wallet, and each run's report (scheduled or by staff, with its
// outcome and counts) with its items by area, gone with their report.
const refused = (code: string, name: string) => ({ code, message: expect.stringContaining(name) });
const HOT = "0x00000000000000000000000000000000000b0032";

const step: MigrationStep = {
  async after(db) {
    const log = `insert into chain_token_logs (chain_id, tx_hash, log_index, block_number, from_address, to_address, units)
      values (8453, '0x0032a', 4, 21000100, $1, '0x00000000000000000000000000000000000a0032', '2500000')`;
    await db.query(log, [HOT]);
    expect(await db.fails(log, [HOT])).toEqual(refused("23505", "chain_token_logs_pk"));
    const cursor = `insert into reconciliation_cursor (chain_id, hot_address, first_block, opening_units, next_block)
      values (8453, $1, 21000000, '100000000', 21000101)`;
    await db.query(cursor, [HOT]);
    expect(await db.fails(cursor, [HOT])).toEqual(refused("23505", "reconciliation_cursor_pk"));

    const report =
      "insert into reconciliation_reports (chain_id, trigger, status) values (8453, $1, $2) returning id";
    const [run] = await db.query<{ id: string }>(report, ["scheduled", "running"]);
    expect(
      await db.query("select differences, awaiting, finished_at from reconciliation_reports where id = $1", [
        run!.id,
      ]),
    ).toEqual([{ differences: 0, awaiting: 0, finished_at: null }]);
    expect(await db.fails(report, ["cron", "running"])).toEqual(
      refused("23514", "reconciliation_reports_trigger"),
    );
    expect(await db.fails(report, ["staff", "done"])).toEqual(
      refused("23514", "reconciliation_reports_status"),
    );
    const item = `insert into reconciliation_items (report_id, area, kind, outcome, tx_hash, chain_units, ledger_units, detail)
      values ($1, $2, 'missing_credit', $3, '0x0032a', '2500000', null, 'On chain, not in the ledger') returning id`;
    await db.query(item, [run!.id, "deposits", "difference"]);
    await db.query(
      "update reconciliation_reports set status = 'differences', differences = 1, as_of_block = 21000100, finished_at = now() where id = $1",
      [run!.id],
    );
    expect(await db.fails(item, [run!.id, "fees", "difference"])).toEqual(
      refused("23514", "reconciliation_items_area"),
    );
    expect(await db.fails(item, [run!.id, "payouts", "ignored"])).toEqual(
      refused("23514", "reconciliation_items_outcome"),
    );
    expect(
      (await db.fails(item, ["00000000-0000-4000-8000-000000000032", "payouts", "awaiting"]))?.code,
    ).toBe("23503");

    // A report deleted takes its items.
    const [staffRun] = await db.query<{ id: string }>(report, ["staff", "error"]);
    const [gone] = await db.query<{ id: string }>(item, [staffRun!.id, "hot_wallet", "awaiting"]);
    await db.query("delete from reconciliation_reports where id = $1", [staffRun!.id]);
    expect(await db.query("select 1 from reconciliation_items where id = $1", [gone!.id])).toEqual([]);
  },
};
export default step;
