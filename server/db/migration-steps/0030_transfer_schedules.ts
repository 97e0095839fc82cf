import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Scheduled and recurring transfers (decision 036): a schedule keeps the recipient's name and address as signed
// (the address-book link goes NULL when the recipient is removed), one schedule per form key, known cadences and
// statuses; schedule_runs holds one row per run date, made (with its transfer) or skipped with a reason.
const refused = (code: string, name: string) => ({ code, message: expect.stringContaining(name) });
const ADDRESS = "0x00000000000000000000000000000000000c0030";

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash, is_email_verified)
       values ('rosa.0030@example.com', 'Rosa', 'Diaz', 'rosa0030', 'x', true) returning id`,
    );
    const [recipient] = await db.query<{ id: string }>(
      "insert into saved_recipients (user_id, name, address) values ($1, 'Landlord LLC', $2) returning id",
      [user!.id, ADDRESS],
    );
    const [transfer] = await db.query<{ id: string }>(
      `insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing, purpose,
         category, payment_method, crypto_address, limit_day)
       values ($1, 120000, 0, 120000, 'Landlord LLC', 'CRYPTO', 'Rent', 'other', 'crypto', $2, '2025-07-01') returning id`,
      [user!.id, ADDRESS],
    );
    db.shared.set("0030.user", user!.id);
    db.shared.set("0030.recipient", recipient!.id);
    db.shared.set("0030.transfer", transfer!.id);
  },
  async after(db) {
    const userId = db.shared.get("0030.user")!;
    const plan = `insert into transfer_schedules (user_id, recipient_id, recipient_name, address, amount, purpose,
        cadence, start_on, end_on, next_run_on, request_key)
      values ($1, $2, 'Landlord LLC', $3, $4, $5, $6, '2025-07-01', $7, '2025-07-01', $8) returning id`;
    const signed = { amount: 120000, purpose: "Rent", cadence: "monthly", endOn: null as string | null };
    const form = (key: string, change: Partial<typeof signed> = {}) => {
      const v = { ...signed, ...change };
      return [userId, db.shared.get("0030.recipient"), ADDRESS, v.amount, v.purpose, v.cadence, v.endOn, key];
    };
    const [made] = await db.query<{ id: string }>(plan, form("form-1"));
    const read = "select status, next_run_index, next_run_on::text from transfer_schedules where id = $1";
    expect(await db.query(read, [made!.id])).toEqual([
      { status: "active", next_run_index: 0, next_run_on: "2025-07-01" },
    ]);
    const run = `insert into schedule_runs (schedule_id, user_id, run_on, outcome, reason, transfer_id)
      values ($1, $2, $3, $4, $5, $6)`;
    const runOn = (day: string, outcome: string, reason: string | null) => [
      made!.id,
      userId,
      day,
      outcome,
      reason,
      null,
    ];
    await db.query(run, [made!.id, userId, "2025-07-01", "made", null, db.shared.get("0030.transfer")]);

    const refusals: [string, unknown[], string, string][] = [
      [plan, form("form-1"), "23505", "transfer_schedules_request_once"],
      [plan, form("form-2", { cadence: "daily" }), "23514", "transfer_schedules_cadence_known"],
      [plan, form("form-3", { endOn: "2025-06-30" }), "23514", "transfer_schedules_end_after_start"],
      [plan, form("form-4", { purpose: "" }), "23514", "transfer_schedules_purpose_length"],
      [plan, form("form-5", { amount: 0 }), "23514", "transfer_schedules_amount_positive"],
      [run, runOn("2025-07-01", "skipped", "Paused"), "23505", "schedule_runs_once"],
      [run, runOn("2025-08-01", "skipped", null), "23514", "schedule_runs_skip_has_reason"],
      [run, runOn("2025-08-01", "failed", "Low balance"), "23514", "schedule_runs_outcome_known"],
    ];
    for (const [sql, params, code, name] of refusals) {
      expect(await db.fails(sql, params), name).toEqual(refused(code, name));
    }
    expect(
      await db.fails("update transfer_schedules set status = 'running' where id = $1", [made!.id]),
    ).toEqual(refused("23514", "transfer_schedules_status_known"));

    // The recipient removed from the address book: the schedule keeps what the customer signed.
    await db.query("delete from saved_recipients where id = $1", [db.shared.get("0030.recipient")]);
    const kept = "select recipient_id, recipient_name, address from transfer_schedules where id = $1";
    expect(await db.query(kept, [made!.id])).toEqual([
      { recipient_id: null, recipient_name: "Landlord LLC", address: ADDRESS },
    ]);
  },
};
export default step;
