import { expect } from "vitest";
import type { MigrationStep } from "@/server/db/migration-steps/step";

// A hit keeps its score's parts (null on hits filed before), and a re-screen after a list load is a run of its own
// (decision 053): one per list, queued with zero counts, in one of four states, gone with its list.
const RUN = "insert into rescreen_runs (list_id, status) values ($1, $2)";

const step: MigrationStep = {
  async before(db) {
    const [kase] = await db.query<{ id: string }>(
      "insert into compliance_cases (user_id) values (null) returning id",
    );
    const [hit] = await db.query<{ id: string }>(
      `insert into compliance_hits (case_id, dedupe_key, screening_point, subject_type, subject, matched, score,
         list_version, list_source, ent_num, programs)
       values ($1, 'step0043:hit', 'onboarding', 'name', 'Ivan Petrov', 'PETROV, Ivan', 0.93, 1, 'SDN', 4301, 'UKRAINE-EO13661')
       returning id`,
      [kase!.id],
    );
    db.shared.set("0043.hit", hit!.id);
  },
  async after(db) {
    const [hit] = await db.query("select score_parts from compliance_hits where id = $1", [
      db.shared.get("0043.hit"),
    ]);
    expect(hit).toEqual({ score_parts: null });
    await db.query("update compliance_hits set score_parts = $2 where id = $1", [
      db.shared.get("0043.hit"),
      JSON.stringify({ name: 0.9, phonetic: 1 }),
    ]);

    const lists = await db.query<{ id: string }>(
      `insert into sanctions_lists (version, source, files, entry_count, name_count, address_count)
       select (select coalesce(max(version), 0) from sanctions_lists) + v, 'upload', '[]', 10, 12, 1
       from (values (1), (2)) n(v) returning id`,
    );
    const [kept, dropped] = lists.map((l) => l.id);
    const [run] = await db.query(
      `insert into rescreen_runs (list_id) values ($1)
       returning status, cursor, total, customers, addresses, new_hits, started_at, finished_at`,
      [kept],
    );
    expect(run).toEqual({
      status: "queued",
      cursor: null,
      total: null,
      customers: 0,
      addresses: 0,
      new_hits: 0,
      started_at: null,
      finished_at: null,
    });
    expect((await db.fails(RUN, [kept, "queued"]))?.code).toBe("23505");
    expect((await db.fails(RUN, [dropped, "paused"]))?.code).toBe("23514");
    expect((await db.fails(RUN, ["00000000-0000-4000-8000-000000000043", "queued"]))?.code).toBe("23503");
    await db.query(RUN, [dropped, "superseded"]);
    await db.query("delete from sanctions_lists where id = $1", [dropped]);
    expect(await db.query("select 1 from rescreen_runs where list_id = $1", [dropped])).toEqual([]);
  },
};
export default step;
