import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Payments by $tag go through the monitoring rules on both sides (decision 054): an alert may name a 'tag_out' or
// 'tag_in' event beside the kinds it had; alerts written before keep theirs.
const ALERT = `insert into monitoring_alerts (case_id, rule, score, blocking, event_kind, event_id, evidence, dedupe_key)
  values ($1, 'velocity', 0.7, false, $2, gen_random_uuid(), '{}', $3)`;

const step: MigrationStep = {
  async before(db) {
    const [kase] = await db.query<{ id: string }>(
      "insert into compliance_cases (user_id) values (null) returning id",
    );
    db.shared.set("0045.case", kase!.id);
    await db.query(ALERT, [kase!.id, "transfer", "step0045:transfer"]);
    expect((await db.fails(ALERT, [kase!.id, "tag_out", "step0045:before"]))?.code).toBe("23514");
  },
  async after(db) {
    const kase = db.shared.get("0045.case")!;
    const [old] = await db.query(
      "select event_kind from monitoring_alerts where dedupe_key = 'step0045:transfer'",
    );
    expect(old).toEqual({ event_kind: "transfer" });
    expect(await db.fails(ALERT, [kase, "tag_out", "step0045:tag_out"])).toBeNull();
    expect(await db.fails(ALERT, [kase, "tag_in", "step0045:tag_in"])).toBeNull();
    expect((await db.fails(ALERT, [kase, "tag", "step0045:tag"]))?.code).toBe("23514");
  },
};
export default step;
