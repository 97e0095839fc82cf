import { expect } from "vitest";
import type { MigrationStep, StepDb } from "@/server/db/migration-steps/step";

// The SQL functions became source files of their own (decision 019): this migration drops the two transfer
// functions whose result type changed (create_transfer_request of 31 positional values, create_transfer_requests
// over jsonb) so server/db/functions can define them anew. This runner applies no function file, so after it
// neither exists, and the other functions the earlier migrations defined are left for the files to replace.
const names = [
  "can_send_money",
  "create_transfer_request",
  "create_transfer_requests",
  "place_hold",
  "transfers_today",
];
const defined = async (db: StepDb) =>
  (
    await db.query<{ signature: string }>(
      `select p.oid::regprocedure::text as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.proname = any($1) order by 1`,
      [names],
    )
  ).map((r) => r.signature);

const step: MigrationStep = {
  async before(db) {
    // What there is to drop: one definition of each, the transfer function with its 31 positional values.
    const signatures = await defined(db);
    expect(signatures.map((s) => s.replace(/\(.*/, ""))).toEqual(names);
    expect(signatures.find((s) => s.startsWith("create_transfer_request("))?.split(",")).toHaveLength(31);
  },
  async after(db) {
    expect(await defined(db)).toEqual([
      "can_send_money(uuid)",
      "place_hold(uuid,uuid,bigint,text,text)",
      "transfers_today(uuid,text)",
    ]);
  },
};
export default step;
