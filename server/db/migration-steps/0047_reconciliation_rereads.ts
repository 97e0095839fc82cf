import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Reconciliation reads blocks again and reports a difference once (decision 057): a token log keeps its block hash
// and its place in its transaction (once per transaction); a difference stays open, one per key, until resolved;
// items name their difference and may be 'resolved'; a report counts new and resolved ones (0 on older reports).
const LOG = `insert into chain_token_logs (chain_id, tx_hash, log_index, tx_log_index, block_hash, block_number, from_address,
  to_address, units) values (84532, $1, $2, $3, '0xblock4700', 4700, '0xfrom', '0xto', 1000000)`;
const DIFFERENCE = `insert into reconciliation_differences (chain_id, key, area, kind, detail, first_report_id,
  first_seen_block, last_report_id, last_seen_block, resolved_block, resolved_at, acknowledged_at, acknowledgment_reason)
  values (84532, 'payouts|payout_mismatch|0x47|', 'payouts', 'payout_mismatch', 'Mismatch', $1, 4700, $1, 4700, $2, $3, $4, $5)
  returning id`;

const step: MigrationStep = {
  async before(db) {
    await db.query(
      `insert into chain_token_logs (chain_id, tx_hash, log_index, block_number, from_address, to_address, units)
       values (84532, '0x4701', 2, 4700, '0xfrom', '0xto', 1000000)`,
    );
    const [report] = await db.query<{ id: string }>(
      "insert into reconciliation_reports (chain_id, trigger, status, differences) values (84532, 'staff', 'differences', 1) returning id",
    );
    const [item] = await db.query<{ id: string }>(
      `insert into reconciliation_items (report_id, area, kind, outcome, tx_hash, detail)
       values ($1, 'payouts', 'payout_mismatch', 'difference', '0x47', 'Mismatch') returning id`,
      [report!.id],
    );
    db.shared.set("0047.report", report!.id);
    db.shared.set("0047.item", item!.id);
  },
  async after(db) {
    const report = db.shared.get("0047.report")!;
    const [log] = await db.query(
      "select tx_log_index, block_hash from chain_token_logs where tx_hash = '0x4701'",
    );
    expect(log).toEqual({ tx_log_index: null, block_hash: null });
    expect(await db.fails(LOG, ["0x4702", 4, 0])).toBeNull();
    expect((await db.fails(LOG, ["0x4702", 6, 0]))?.code).toBe("23505");
    const [counts] = await db.query(
      "select new_differences, resolved from reconciliation_reports where id = $1",
      [report],
    );
    expect(counts).toEqual({ new_differences: 0, resolved: 0 });

    const [open] = await db.query<{ id: string }>(DIFFERENCE, [report, null, null, null, null]);
    expect((await db.fails(DIFFERENCE, [report, null, null, null, null]))?.code).toBe("23505");
    expect((await db.fails(DIFFERENCE, [report, 4701, null, null, null]))?.code).toBe("23514");
    expect((await db.fails(DIFFERENCE, [report, null, null, "2025-03-05T00:00:00Z", null]))?.code).toBe(
      "23514",
    );
    // A resolved difference frees its key for the next time the same difference appears.
    expect(await db.fails(DIFFERENCE, [report, 4705, "2025-03-05T00:00:00Z", null, null])).toBeNull();

    const item = db.shared.get("0047.item")!;
    const [before] = await db.query("select difference_id from reconciliation_items where id = $1", [item]);
    expect(before).toEqual({ difference_id: null });
    const link = "update reconciliation_items set difference_id = $2, outcome = $3 where id = $1";
    expect((await db.fails(link, [item, -1, "difference"]))?.code).toBe("23503");
    expect((await db.fails(link, [item, open!.id, "closed"]))?.code).toBe("23514");
    expect(await db.fails(link, [item, open!.id, "difference"])).toBeNull();
    expect(
      await db.fails(
        `insert into reconciliation_items (report_id, area, kind, outcome, tx_hash, detail, difference_id)
         values ($1, 'payouts', 'payout_mismatch', 'resolved', '0x47', 'Mismatch', $2)`,
        [report, open!.id],
      ),
    ).toBeNull();
  },
};
export default step;
