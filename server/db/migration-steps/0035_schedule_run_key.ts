import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// A scheduled run's transfer carries 'schedule:<id>:<date>', unique across transfer requests (decision 036);
// runs made before the migration get it from their schedule_runs row or, unrecorded, from the run's
// Idempotency-Key record. Other transfers keep none.
const TRANSFER = `insert into transfer_requests (user_id, amount, fee, net_amount, recipient_name, recipient_routing,
  purpose, category, payment_method, crypto_address, limit_day)
  values ($1, 1500, 0, 1500, 'Landlord LLC', 'CRYPTO', 'Rent', 'other', 'crypto', '0x${"cd".repeat(20)}', '2025-03-01')
  returning id`;

const step: MigrationStep = {
  async before(db) {
    const [user] = await db.query<{ id: string }>(
      `insert into users (email, first_name, last_name, pillar_tag, password_hash)
       values ('step0035@example.test', 'Sam', 'Schedule', 'step0035', 'x') returning id`,
    );
    const [schedule] = await db.query<{ id: string }>(
      `insert into transfer_schedules (user_id, recipient_name, address, amount, purpose, cadence, start_on, request_key)
       values ($1, 'Landlord LLC', '0x${"cd".repeat(20)}', 1500, 'Rent', 'weekly', '2025-03-01', 'step0035-create')
       returning id`,
      [user!.id],
    );
    const transfers: string[] = [];
    for (let i = 0; i < 3; i++) transfers.push((await db.query<{ id: string }>(TRANSFER, [user!.id]))[0]!.id);
    const [recorded, unrecorded, plain] = transfers;
    await db.query(
      "insert into schedule_runs (schedule_id, user_id, run_on, outcome, transfer_id) values ($1, $2, '2025-03-01', 'made', $3)",
      [schedule!.id, user!.id, recorded],
    );
    // The crash case: the run's transfer was made and its idempotency record kept, but no schedule_runs row.
    // A customer's own request kept under an ordinary key is no scheduled run.
    await db.query(
      `insert into idempotency_keys (user_id, key, request_hash, status_code, response) values
         ($1, $2, 'h1', 201, jsonb_build_object('transferRequest', jsonb_build_object('id', $3::text))),
         ($1, 'step0035-customer-key', 'h2', 201, jsonb_build_object('transferRequest', jsonb_build_object('id', $4::text)))`,
      [user!.id, `schedule:${schedule!.id}:2025-03-08`, unrecorded, plain],
    );
    db.shared.set("0035.schedule", schedule!.id);
    db.shared.set("0035.transfers", transfers.join(","));
  },
  async after(db) {
    const schedule = db.shared.get("0035.schedule")!;
    const ids = db.shared.get("0035.transfers")!.split(",");
    const rows = await db.query<{ id: string; schedule_run_key: string | null }>(
      "select id, schedule_run_key from transfer_requests where id = any($1::uuid[])",
      [ids],
    );
    const keys = Object.fromEntries(rows.map((r) => [r.id, r.schedule_run_key]));
    expect(keys).toEqual({
      [ids[0]!]: `schedule:${schedule}:2025-03-01`,
      [ids[1]!]: `schedule:${schedule}:2025-03-08`,
      [ids[2]!]: null,
    });
    // A second transfer for the same run is refused.
    const again = `update transfer_requests set schedule_run_key = $1 where id = $2`;
    expect((await db.fails(again, [`schedule:${schedule}:2025-03-01`, ids[2]]))?.code).toBe("23505");
  },
};
export default step;
