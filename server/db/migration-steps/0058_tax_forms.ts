import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Form 1099-INT (decision 070): tax_form_runs, numbered runs of a tax year with at most one running at a time, and
// tax_forms, each form as issued, sequence 1 the original and a later one a CORRECTED form; one current form per
// customer and year.
const form = (
  user: string,
  run: string,
  sequence: number,
  superseded: boolean,
  cents = 1234,
): [string, unknown[]] => [
  `insert into tax_forms (user_id, tax_year, sequence, run_id, interest_cents, payer_name, payer_tin, payer_street,
     payer_city, payer_state, payer_zip, payer_phone, recipient_name, recipient_first_name, recipient_last_name,
     recipient_street, recipient_city, recipient_state, recipient_zip, tin_last4, tin_ciphertext, account_number,
     superseded_at)
   values ($1, 2024, $2, $3, $5, 'Pillar Bank', '12-3456789', '1 Main St', 'New York', 'NY', '10001', '2125550100',
     'Tess Taxpayer', 'Tess', 'Taxpayer', '2 Elm St', 'Albany', 'NY', '12207', '6789', 'v1:sealed', '123450058',
     case when $4 then now() end) returning id`,
  [user, sequence, run, superseded, cents],
];

const step: MigrationStep = {
  async before(db) {
    const [customer] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0058@example.test', 'Tess', 'Taxpayer', 'step0058', 'x') returning id`,
    );
    db.shared.set("0058.customer", customer!.id);
  },
  async after(db) {
    const customer = db.shared.get("0058.customer")!;
    const run =
      "insert into tax_form_runs (tax_year, run_number, total, status) values ($1, $2, 5, $3) returning id";
    const [first] = await db.query<{ id: string }>(run, [2024, 1, "running"]);
    const [started] = await db.query(
      "select done, forms_issued, corrections from tax_form_runs where id = $1",
      [first!.id],
    );
    expect(started).toEqual({ done: 0, forms_issued: 0, corrections: 0 });
    // A second run of the year waits for the first to finish; run numbers are once per year; a year is 2000-2999.
    expect((await db.fails(run, [2024, 2, "running"]))?.code).toBe("23505");
    expect(await db.fails(run, [2023, 1, "running"])).toBeNull();
    expect((await db.fails(run, [1999, 1, "running"]))?.code).toBe("23514");
    expect((await db.fails(run, [2024, 3, "paused"]))?.code).toBe("23514");
    await db.query("update tax_form_runs set status = 'done', finished_at = now() where id = $1", [
      first!.id,
    ]);
    expect((await db.fails(run, [2024, 1, "running"]))?.code).toBe("23505");
    const [second] = await db.query<{ id: string }>(run, [2024, 2, "running"]);

    // The original, then a correction once the original is superseded; never two current forms.
    expect((await db.fails(...form(customer, first!.id, 0, false)))?.code).toBe("23514");
    expect(await db.fails(...form(customer, first!.id, 1, false))).toBeNull();
    expect((await db.fails(...form(customer, second!.id, 2, false)))?.code).toBe("23505");
    await db.query("update tax_forms set superseded_at = now() where user_id = $1 and sequence = 1", [
      customer,
    ]);
    expect(await db.fails(...form(customer, second!.id, 2, false))).toBeNull();
    expect((await db.fails(...form(customer, second!.id, 2, true)))?.code).toBe("23505");
    expect((await db.fails(...form(customer, customer, 3, true)))?.code).toBe("23503");
    expect((await db.fails(...form(customer, second!.id, 3, true, -1)))?.code).toBe("23514");
  },
};
export default step;
