import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Compliance (decisions 024, 025): the applicant's date of birth (null on applications made before it was asked),
// OFAC lists loaded as whole versioned snapshots with one active at a time, and the cases their hits open: one
// open case per customer, decided_at set exactly when a case is decided, each hit filed once by its dedupe key.
const list = `insert into sanctions_lists (version, source, files, entry_count, name_count, address_count, is_active)
  values ($1, $2, '["sdn.csv"]', 1, 1, 1, $3) returning id`;
const entry = `insert into sanctions_entries (list_id, source, ent_num, name, sdn_type, programs, birth_dates)
  values ($1, 'sdn', 36, 'EXAMPLE TRADING LLC', 'Entity', 'SDGT', '[]')`;
const kase = "insert into compliance_cases (user_id, status, decided_at) values ($1, $2, $3) returning id";
const hit = `insert into compliance_hits (case_id, user_id, dedupe_key, screening_point, subject_type, subject, matched,
  score, list_version, list_source, ent_num, programs) values ($1, $2, $3, 'onboarding', $4, 'Omar Haddad',
  'OMAR HADDAD', 0.93, 21, 'sdn', 36, 'SDGT')`;

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
       values ('omar.0021@example.com', 'Omar', 'Haddad', 'omar0021', 'x', true) returning id`,
    );
    const [kyc] = await db.query<{ id: string }>(
      `insert into kyc_applications (user_id, account_type, first_name, last_name, street, city, state, zip_code,
         address, ssn_ciphertext, ssn_index, ssn_last4, status)
       values ($1, 'personal', 'Omar', 'Haddad', '1 Main St', 'Austin', 'TX', '78701', '1 Main St, Austin, TX 78701',
         'sealed', 'index-0021', '6789', 'approved') returning id`,
      [user!.id],
    );
    db.shared.set("0021.user", user!.id);
    db.shared.set("0021.kyc", kyc!.id);
  },
  async after(db) {
    const userId = db.shared.get("0021.user")!;
    const kyc = "select date_of_birth, ssn_last4, status from kyc_applications where id = $1";
    expect(await db.query(kyc, [db.shared.get("0021.kyc")])).toEqual([
      { date_of_birth: null, ssn_last4: "6789", status: "approved" },
    ]);
    const [v21] = await db.query<{ id: string }>(list, [21, "cli", true]);
    await db.query(entry, [v21!.id]);
    const [open] = await db.query<{ id: string }>(kase, [userId, "open", null]);
    await db.query(kase, [userId, "cleared", new Date()]); // a decided case beside the open one
    await db.query(hit, [open!.id, userId, "0021:onboarding:name", "name"]);
    db.shared.set("0021.case", open!.id);

    const refusals: [string, unknown[], string, string][] = [
      [list, [21, "upload", false], "23505", "sanctions_lists_version_key"],
      [list, [22, "upload", true], "23505", "sanctions_lists_one_active_key"],
      [list, [22, "email", false], "23514", "sanctions_lists_source_check"],
      [entry, [v21!.id], "23505", "sanctions_entries_pk"],
      [entry, ["00000000-0000-4000-8000-000000000021"], "23503", "sanctions_entries_list_id_fk"],
      [kase, [userId, "open", null], "23505", "compliance_cases_one_open_key"],
      [kase, [userId, "open", new Date()], "23514", "compliance_cases_decided_consistent"],
      [kase, [userId, "cleared", null], "23514", "compliance_cases_decided_consistent"],
      [kase, [userId, "closed", new Date()], "23514", "compliance_cases_status_check"],
      [hit, [open!.id, userId, "0021:onboarding:name", "name"], "23505", "compliance_hits_dedupe_key"],
      [
        hit,
        [open!.id, userId, "0021:onboarding:phone", "phone"],
        "23514",
        "compliance_hits_subject_type_check",
      ],
    ];
    for (const [sql, params, code, name] of refusals) {
      expect(await db.fails(sql, params), name).toEqual({ code, message: expect.stringContaining(name) });
    }

    // A list version deleted takes its entries, names and addresses.
    const [v22] = await db.query<{ id: string }>(list, [22, "upload", false]);
    await db.query(entry, [v22!.id]);
    await db.query(
      `with n as (insert into sanctions_names (list_id, source, ent_num, kind, name, normalised)
         values ($1, 'sdn', 36, 'primary', 'EXAMPLE TRADING LLC', 'example trading'))
       insert into sanctions_addresses (list_id, source, ent_num, currency, address, address_key)
       values ($1, 'sdn', 36, 'ETH', $2, $2)`,
      [v22!.id, "0x00000000000000000000000000000000000000aa"],
    );
    await db.query("delete from sanctions_lists where id = $1", [v22!.id]);
    const left = `select list_id from sanctions_entries where list_id = $1 union all select list_id from sanctions_names
      where list_id = $1 union all select list_id from sanctions_addresses where list_id = $1`;
    expect(await db.query(left, [v22!.id])).toEqual([]);
    // One active list left behind would stop a later step's load: the probe list is retired.
    await db.query("update sanctions_lists set is_active = false where id = $1", [v21!.id]);
  },
};
export default step;
