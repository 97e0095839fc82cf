import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// A payment to a listed person is blocked, not returned (decision 048): the blocked property account exists, a case
// decision may be reject_transfer or block_transfer, names its transfer (only those two may) and keeps the day its
// OFAC report is due. Decisions made before keep no transfer and no due day.
const DECISION = `insert into compliance_case_decisions (case_id, decision, note, transfer_id, report_due_on)
  values ($1, $2, 'Listed person', $3, $4)`;

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0040@example.test', 'Lee', 'Listed', 'step0040', 'x') returning id`,
    );
    const [kase] = await db.query<{ id: string }>(
      "insert into compliance_cases (user_id, status, decided_at) values ($1, 'frozen', now()) returning id",
      [user!.id],
    );
    const [decision] = await db.query<{ id: string }>(
      `insert into compliance_case_decisions (case_id, decision, note, status, decided_at)
       values ($1, 'freeze', 'Frozen on a name hit', 'approved', now()) returning id`,
      [kase!.id],
    );
    const [transfer] = await db.query<{ id: string }>(
      `insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing, purpose,
         category, payment_method, crypto_address, limit_day)
       values ($1, 9900, 0, 9900, 'Listed Person', 'CRYPTO', 'Invoice', 'other', 'crypto', $2, '2025-03-05') returning id`,
      [user!.id, `0x${"40".repeat(20)}`],
    );
    db.shared.set("0040.user", user!.id);
    db.shared.set("0040.case", kase!.id);
    db.shared.set("0040.decision", decision!.id);
    db.shared.set("0040.transfer", transfer!.id);
  },
  async after(db) {
    const blocked = await db.query("select kind, user_id from ledger_accounts where code = 'blocked_funds'");
    expect(blocked).toEqual([{ kind: "system", user_id: null }]);

    const [old] = await db.query<{ transfer_id: string | null; report_due_on: string | null }>(
      "select transfer_id, report_due_on from compliance_case_decisions where id = $1",
      [db.shared.get("0040.decision")],
    );
    expect(old).toEqual({ transfer_id: null, report_due_on: null });

    const kase = db.shared.get("0040.case")!;
    const transfer = db.shared.get("0040.transfer")!;
    expect((await db.fails(DECISION, [kase, "refund", null, null]))?.code).toBe("23514");
    const onFreeze = await db.fails(DECISION, [kase, "freeze", transfer, null]);
    expect(onFreeze?.message).toContain("compliance_case_decisions_transfer_only_for_transfers");
    expect(
      (await db.fails(DECISION, [kase, "block_transfer", "00000000-0000-4000-8000-000000000040", null]))
        ?.code,
    ).toBe("23503");
    // Pending, as a maker proposes it; left in place (a case has one pending decision at most).
    expect(await db.fails(DECISION, [kase, "block_transfer", transfer, "2025-03-19"])).toBeNull();
    const [made] = await db.query<{ report_due_on: string }>(
      "select report_due_on::text from compliance_case_decisions where transfer_id = $1",
      [transfer],
    );
    expect(made).toEqual({ report_due_on: "2025-03-19" });
  },
};
export default step;
