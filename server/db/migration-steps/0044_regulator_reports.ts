import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// What a regulator asks for (decision 055): a SAR's extra FinCEN fields, one row per case, and one OFAC report per
// approved block or sanctions reject. Blocks and rejects approved before the migration become reports, with the
// owner, counterparty, programs and list entries as they stand, the New York day decided and the due day kept.

// Name, decision, status, on the case with hits, whose customer still exists.
const DECISIONS = [
  ["block", "block_transfer", "approved", true, true],
  ["reject", "reject_transfer", "approved", true, true],
  ["pending", "block_transfer", "pending", true, true],
  ["rejectNoHits", "reject_transfer", "approved", false, true],
  ["blockDeleted", "block_transfer", "approved", false, false],
] as const;

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0044@example.test', 'Olga', 'Owner', 'step0044', 'x') returning id`,
    );
    const u = user!.id;
    await db.query(
      `insert into kyc_applications (user_id, account_type, first_name, last_name, street, city, state, zip_code, address,
         ssn_ciphertext, ssn_index, ssn_last4, status) values ($1, 'personal', 'Olga', 'Owner', '1 Main St', 'Albany',
         'NY', '12207', '1 Main St, Albany', 'sealed', 'step0044-ssn-index', '4444', 'approved')`,
      [u],
    );
    const [hits, noHits] = await db.query<{ id: string }>(
      "insert into compliance_cases (user_id) values ($1), (null) returning id",
      [u],
    );
    await db.query(
      `insert into compliance_hits (case_id, user_id, dedupe_key, screening_point, subject_type, subject, matched, score,
         list_version, list_source, ent_num, programs)
       values ($1, $2, 'step0044:a', 'transfer', 'name', 'Listed Trading LLC', 'LISTED TRADING', 0.97, 1, 'SDN', 5678, 'SDGT'),
              ($1, $2, 'step0044:b', 'transfer', 'address', '0x4444', '0x4444', 1, 1, 'SDN', 1234, 'IRAN')`,
      [hits!.id, u],
    );
    // Each decision on a transfer of its own; decided at 02:00 UTC on 4 March, which is 3 March in New York.
    for (const [name, decision, status, withHits, kept] of DECISIONS) {
      const [row] = await db.query<{ transfer: string; decision: string }>(
        `with t as (insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing,
           purpose, category, payment_method, crypto_address, limit_day)
           values ($1, 4400, 0, 4400, 'Listed Trading LLC', 'CRYPTO', 'Invoice', 'other', 'crypto', '0x4444', '2025-03-03')
           returning id)
         insert into compliance_case_decisions (case_id, decision, note, status, decided_at, transfer_id, report_due_on)
         select $2, $3, 'Listed counterparty', $4, case when $4 = 'pending' then null else '2025-03-04T02:00:00Z'::timestamptz end,
           t.id, '2025-03-17' from t returning transfer_id as transfer, id as decision`,
        [kept ? u : null, (withHits ? hits : noHits)!.id, decision, status],
      );
      db.shared.set(`0044.${name}`, row!.decision);
      db.shared.set(`0044.${name}.transfer`, row!.transfer);
    }
    db.shared.set("0044.user", u);
    db.shared.set("0044.case", hits!.id);
    db.shared.set("0044.noHits", noHits!.id);
  },
  async after(db) {
    const id = (k: string) => db.shared.get(`0044.${k}`)!;
    const reports = await db.query(
      `select decision_id, kind, case_id, transfer_id, user_id, owner_name, owner_address, programs, list_entries,
         amount::int, counterparty_name, counterparty_address, decided_on::text, due_on::text, filed_on
       from ofac_reports where decision_id = any($1::uuid[]) order by kind, owner_name`,
      [DECISIONS.map(([name]) => id(name))],
    );
    const rest = [4400, "Listed Trading LLC", "0x4444", "2025-03-03", "2025-03-17", null];
    const owner = [id("user"), "Olga Owner", "1 Main St, Albany", "IRAN; SDGT", "SDN #1234; SDN #5678"];
    const gone = [null, "Deleted customer", null, "", ""];
    expect(reports.map(Object.values)).toEqual([
      [id("blockDeleted"), "blocked", id("noHits"), id("blockDeleted.transfer"), ...gone, ...rest],
      [id("block"), "blocked", id("case"), id("block.transfer"), ...owner, ...rest],
      [id("reject"), "rejected", id("case"), id("reject.transfer"), ...owner, ...rest],
    ]);
    // One report per decision; a known kind, a positive amount, filed all at once or not at all (checks come before
    // the unique index, so a copy of a reported decision shows each).
    const copy = `insert into ofac_reports (kind, case_id, decision_id, amount, owner_name, counterparty_name, programs,
      list_entries, decided_at, decided_on, due_on, filed_on, filed_reference) select $2, case_id, decision_id, $3,
      owner_name, counterparty_name, programs, list_entries, decided_at, decided_on, due_on, $4::date, $5
      from ofac_reports where decision_id = $1`;
    expect((await db.fails(copy, [id("block"), "blocked", 4400, null, null]))?.code).toBe("23505");
    expect((await db.fails(copy, [id("block"), "returned", 4400, null, null]))?.code).toBe("23514");
    expect((await db.fails(copy, [id("block"), "blocked", 0, null, null]))?.code).toBe("23514");
    const halfFiled = await db.fails(copy, [id("block"), "blocked", 4400, "2025-03-10", "OFAC-1"]);
    expect(halfFiled?.message).toContain("ofac_reports_filed_consistent");

    const SAR = `insert into compliance_sar_details (case_id, filing_type, prior_report_id, id_number_last4)
      values ($1, $2, $3, $4)`;
    for (const bad of [
      ["continuing", null, null],
      ["initial", "31000012345678", null],
      ["initial", null, "1234"],
    ])
      expect((await db.fails(SAR, [id("case"), ...bad]))?.code).toBe("23514");
    const [sar] = await db.query(
      "insert into compliance_sar_details (case_id) values ($1) returning filing_type, subject_identified, categories",
      [id("case")],
    );
    expect(sar).toEqual({ filing_type: "initial", subject_identified: true, categories: [] });
  },
};
export default step;
