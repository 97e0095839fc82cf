import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// A case's work and its decisions (decision 032): a case now ends cleared, restricted, frozen or filed ('confirmed'
// kept for cases decided before), gains an assignee and a narrative ('' on existing cases), comments, documents
// (an upload once per case), related customers, and decisions proposed by one member and checked by another, one
// pending at a time.
const NOBODY = "00000000-0000-4000-8000-000000000027";

const step: MigrationStep = {
  async before(db) {
    const people = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash, staff_roles)
       values ('yan.0027@example.com', 'Yan', 'Li', 'yan0027', 'x', '{}'),
              ('maker.0027@example.com', 'Mia', 'Maker', 'mia0027', 'x', '{compliance}'),
              ('checker.0027@example.com', 'Cal', 'Checker', 'cal0027', 'x', '{compliance}')
       returning id`,
    );
    const [customer, maker] = people.map((p) => p.id);
    const [decided] = await db.query<{ id: string }>(
      `insert into compliance_cases (user_id, status, decision_note, decided_by, decided_at)
       values ($1, 'confirmed', 'True match on the SDN list', $2, now() - interval '3 days') returning id`,
      [customer, maker],
    );
    const [upload] = await db.query<{ id: string }>(
      `insert into uploads (user_id, object_key, status, content_type, size_bytes, expires_at, completed_at)
       values ($1, 'kyc/0027/passport.pdf', 'complete', 'application/pdf', 48213, now() + interval '1 day', now())
       returning id`,
      [customer],
    );
    db.shared.set("0027.people", people.map((p) => p.id).join(","));
    db.shared.set("0027.case", decided!.id);
    db.shared.set("0027.upload", upload!.id);
  },
  async after(db) {
    const [customer, maker, checker] = db.shared.get("0027.people")!.split(",");
    const [caseId, upload] = [db.shared.get("0027.case")!, db.shared.get("0027.upload")];
    const read = "select status, assigned_to, narrative from compliance_cases where id = $1";
    expect(await db.query(read, [caseId])).toEqual([
      { status: "confirmed", assigned_to: null, narrative: "" },
    ]);
    const ended = "insert into compliance_cases (status, decided_at) values ($1, now())";
    for (const status of ["restricted", "frozen", "filed"])
      expect(await db.fails(ended, [status])).toBeNull();
    await db.query("update compliance_cases set assigned_to = $2, narrative = 'Reviewed' where id = $1", [
      caseId,
      maker,
    ]);
    await db.query(
      "insert into compliance_case_comments (case_id, author_id, body) values ($1, $2, 'Called')",
      [caseId, maker],
    );
    const doc =
      "insert into compliance_case_documents (case_id, upload_id, title) values ($1, $2, 'Passport')";
    await db.query(doc, [caseId, upload]);
    const link = "insert into compliance_case_links (case_id, user_id, note) values ($1, $2, 'Same device')";
    await db.query(link, [caseId, customer]);
    const propose =
      "insert into compliance_case_decisions (case_id, decision, note, maker_id) values ($1, $2, 'Why', $3)";
    await db.query(propose, [caseId, "freeze", maker]);
    const check = `update compliance_case_decisions set status = $2, checker_id = $3, decided_at = $4
      where case_id = $1 and status = 'pending'`;

    const refusals: [string, unknown[], string, string][] = [
      [ended, ["closed"], "23514", "compliance_cases_status_check"],
      [
        "update compliance_cases set assigned_to = $2 where id = $1",
        [caseId, NOBODY],
        "23503",
        "compliance_cases_assigned_to",
      ],
      [doc, [caseId, upload], "23505", "compliance_case_documents_upload_key"],
      [link, [caseId, customer], "23505", "compliance_case_links_pk"],
      [propose, [caseId, "clear", maker], "23505", "compliance_case_decisions_one_pending_key"],
      [propose, [caseId, "close", maker], "23514", "compliance_case_decisions_decision_check"],
      [check, [caseId, "approved", maker, new Date()], "23514", "compliance_case_decisions_two_people"],
      [check, [caseId, "approved", checker, null], "23514", "compliance_case_decisions_decided_consistent"],
    ];
    for (const [sql, params, code, name] of refusals) {
      expect(await db.fails(sql, params), name).toEqual({ code, message: expect.stringContaining(name) });
    }
    expect(await db.query(`${check} returning status`, [caseId, "rejected", checker, new Date()])).toEqual([
      { status: "rejected" },
    ]);
    expect(await db.fails(propose, [caseId, "clear", maker])).toBeNull(); // none pending any more
  },
};
export default step;
