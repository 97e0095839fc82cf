import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Held deposits (decision 039): a deposit from a listed sender is booked with an open hold and waits on a case, so
// 'held' joins the statuses, a held deposit has its entry, hold and case, and a sanctions hit may name the
// deposit; and 'lift' joins the case decisions. The deposits booked before keep their shape.
const NOWHERE = "00000000-0000-4000-8000-000000000033";
const SENDER = "0x00000000000000000000000000000000000f4011";

const step: MigrationStep = {
  async before(db) {
    // The old check knew no 'held'.
    expect(
      await db.fails("update chain_deposits set status = 'held' where id = $1", [
        db.shared.get("0024.pending"),
      ]),
    ).toEqual({ code: "23514", message: expect.stringContaining("chain_deposits_status") });
  },
  async after(db) {
    // The deposits 0024's step left: one pending, one credited with its entry, both as they were.
    const [pending, credited] = [db.shared.get("0024.pending")!, db.shared.get("0024.credited")!];
    const read = `select status, entry_id is not null as booked, hold_id, case_id from chain_deposits
      where id = any($1) order by status desc`;
    expect(await db.query(read, [[pending, credited]])).toEqual([
      { status: "pending", booked: false, hold_id: null, case_id: null },
      { status: "credited", booked: true, hold_id: null, case_id: null },
    ]);
    const caseId = db.shared.get("0021.case")!;
    const hold = "update chain_deposits set status = 'held', hold_id = $3, case_id = $2 where id = $1";
    const hit = `insert into compliance_hits (case_id, dedupe_key, screening_point, subject_type, subject, matched,
        score, list_version, list_source, ent_num, programs, deposit_id)
      values ($1, '0033:deposit', 'deposit', 'address', $2, $2, 1, 21, 'sdn', 36, 'SDGT', $3) returning id`;
    const [restricted] = await db.query<{ id: string }>(
      "insert into compliance_cases (status, decided_at) values ('restricted', now()) returning id",
    );
    const propose =
      "insert into compliance_case_decisions (case_id, decision, note) values ($1, $2, 'Cleared')";
    const refusals: [string, unknown[], string, string][] = [
      [hold, [credited, caseId, null], "23514", "chain_deposits_held_has_hold"],
      [hold, [credited, caseId, NOWHERE], "23503", "chain_deposits_hold_id"],
      // An entry still means booked: a pending deposit has none.
      [
        "update chain_deposits set entry_id = (select entry_id from chain_deposits where id = $2) where id = $1",
        [pending, credited],
        "23514",
        "chain_deposits_credited",
      ],
      [hit, [caseId, SENDER, NOWHERE], "23503", "compliance_hits_deposit_id"],
      [propose, [restricted!.id, "unrestrict"], "23514", "compliance_case_decisions_decision_check"],
    ];
    for (const [sql, params, code, name] of refusals) {
      expect(await db.fails(sql, params), name).toEqual({ code, message: expect.stringContaining(name) });
    }
    // A restricted case's restriction lifted by a new decision.
    expect(await db.fails(propose, [restricted!.id, "lift"])).toBeNull();

    // Tried and rolled back: the credited deposit's $10.00 held under an open hold on the case; a hit naming the
    // pending deposit outlives it.
    await db.query("savepoint held");
    const wallet = db.shared.get("0024.wallet");
    const [held] = await db.query<{ id: string }>(
      "insert into holds (account_id, amount, reference_type, reference_id) values ($1, 1000, 'chain_deposit', $2) returning id",
      [wallet, credited],
    );
    await db.query("update ledger_accounts set held = held + 1000 where id = $1", [wallet]);
    expect(await db.fails(hold, [credited, caseId, held!.id])).toBeNull();
    const [named] = await db.query<{ id: string }>(hit, [caseId, SENDER, pending]);
    await db.query("delete from chain_deposits where id = $1", [pending]);
    expect(await db.query("select deposit_id from compliance_hits where id = $1", [named!.id])).toEqual([
      { deposit_id: null },
    ]);
    await db.query("rollback to savepoint held");
  },
};
export default step;
