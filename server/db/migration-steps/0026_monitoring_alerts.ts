import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// Transaction monitoring (decision 031): alerts the rules raise on money events, filed on the customer's case
// (and gone with it), scored 0..1, on a credit, deposit or transfer, never twice for one rule on one event; and an
// index finding transfers by their address whatever its case.
const refused = (code: string, name: string) => ({ code, message: expect.stringContaining(name) });
const alert = `insert into monitoring_alerts (case_id, user_id, rule, score, blocking, event_kind, event_id, evidence,
    dedupe_key) values ($1, $2, 'many_to_one_address', $3, true, $4, $5, '{"customers": 3}', $6) returning id`;

const step: MigrationStep = {
  async after(db) {
    // The open case 0021's step left on its customer.
    const caseId = db.shared.get("0021.case")!;
    const userId = db.shared.get("0021.user")!;
    const event = randomUUID();
    await db.query(alert, [caseId, userId, 0.8, "transfer", event, `many_to_one_address:${event}`]);
    expect(
      await db.fails(alert, [caseId, userId, 0.8, "transfer", event, `many_to_one_address:${event}`]),
    ).toEqual(refused("23505", "monitoring_alerts_dedupe_key"));
    expect(await db.fails(alert, [caseId, userId, 1.5, "transfer", event, "0026:score"])).toEqual(
      refused("23514", "monitoring_alerts_score_check"),
    );
    expect(await db.fails(alert, [caseId, userId, 0.5, "payout", event, "0026:kind"])).toEqual(
      refused("23514", "monitoring_alerts_event_kind_check"),
    );
    expect((await db.fails(alert, [randomUUID(), userId, 0.5, "credit", event, "0026:case"]))?.code).toBe(
      "23503",
    );

    // A case deleted takes its alerts.
    const [other] = await db.query<{ id: string }>(
      "insert into compliance_cases (status, decided_at) values ('cleared', now()) returning id",
    );
    const [gone] = await db.query<{ id: string }>(alert, [
      other!.id,
      null,
      0.2,
      "deposit",
      event,
      "0026:cascade",
    ]);
    await db.query("delete from compliance_cases where id = $1", [other!.id]);
    expect(await db.query("select 1 from monitoring_alerts where id = $1", [gone!.id])).toEqual([]);

    const [index] = await db.query<{ indexdef: string }>(
      "select indexdef from pg_indexes where indexname = 'transfer_requests_address_created_idx'",
    );
    expect(index?.indexdef).toMatch(
      /ON public\.transfer_requests USING btree \(lower\(crypto_address\), created_at\)/,
    );
  },
};
export default step;
