import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTED, seedCustomers } from "@/scripts/bench/seed-customers";
import { loadSanctionsList } from "@/server/features/compliance/load-sanctions-list";
import { realListFiles } from "@/tests/support/real-ofac-list";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer, waitFor } from "@/tests/support/server-process";

// Decision 053: the re-screen after a list load is a job in the jobs room, a batch of customers per
// transaction with the run's cursor. A server killed with SIGKILL while a batch is open loses only that batch;
// started again, it goes on from the cursor and finishes the run once, each hit filed once.
const CUSTOMERS = 12_000;
const LISTED_EVERY = 1_000;

let scratch: ScratchDatabase;
let server: ServerProcess | undefined;

beforeAll(async () => {
  scratch = await createScratchDatabase(process.env.DATABASE_URL!);
});
afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
});

interface RunRow {
  status: string;
  customers: number;
  total: number | null;
  new_hits: number;
  cursor: string | null;
}

describe("a server killed with SIGKILL while it re-screens", () => {
  it("resumes from the run's cursor after a restart and finishes once, each hit filed once", async () => {
    const { database } = scratch;
    // Names cheap to screen: this is a test of the job's batches and cursor, not of the matcher's speed.
    const listed = await seedCustomers(database, CUSTOMERS, LISTED_EVERY, "kill", "plain");
    // The load queues the run in its transaction; the server's jobs room takes it at its start.
    const list = await loadSanctionsList(database.db, realListFiles(), {
      actorId: null,
      actorRole: null,
      source: "cli",
    });
    const run = async () =>
      (
        await database.query<RunRow>(
          "select status, customers, total, new_hits, cursor::text from rescreen_runs where list_id = $1",
          [list.id],
        )
      )[0]!;

    server = await startServer({ DATABASE_URL: scratch.url, PGAPPNAME: "pillar-rescreen" });
    // Kill it inside a batch's transaction (the run's row locked, its hits not committed), after some committed.
    await waitFor(
      "a batch in flight after the first ones committed",
      async () => {
        const now = await run();
        if (now.status === "done") throw new Error("the run finished before the kill: seed more customers");
        if (now.customers < 2 * 1000) return false;
        const [holder] = await database.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity a
           where a.datname = current_database() and a.application_name = 'pillar-rescreen'
             and a.xact_start is not null
             and exists (select 1 from pg_locks l where l.pid = a.pid and l.relation = 'rescreen_runs'::regclass)`,
        );
        return (holder?.n ?? 0) > 0;
      },
      { timeoutMs: 120_000, intervalMs: 20 },
    );
    await server.crash();
    const atKill = await run();
    expect(atKill.status).toBe("running");
    expect(atKill.customers).toBeLessThan(CUSTOMERS);
    // Only whole batches committed: the counters and the cursor moved together.
    const [committed] = await database.query<{ n: number }>(
      "select count(*)::int as n from users where cardinality(staff_roles) = 0 and id <= $1::uuid",
      [atKill.cursor],
    );
    expect(committed?.n).toBe(atKill.customers);

    server = await startServer({ DATABASE_URL: scratch.url, PGAPPNAME: "pillar-rescreen" });
    await waitFor("the run to finish", async () => (await run()).status === "done", {
      timeoutMs: 240_000,
      intervalMs: 250,
    });
    const done = await run();
    expect(done).toMatchObject({ status: "done", customers: CUSTOMERS, total: CUSTOMERS });

    const hits = await database.query<{ user_id: string; ent_num: number; screening_point: string }>(
      "select user_id::text, ent_num, screening_point from compliance_hits",
    );
    // Each listed customer once, on the listed entry; the run's count is what the table holds (no batch counted
    // twice, none lost).
    const onListed = hits.filter((h) => h.ent_num === LISTED.entNum);
    expect(onListed).toHaveLength(listed);
    expect(new Set(onListed.map((h) => h.user_id)).size).toBe(listed);
    expect(hits.every((h) => h.screening_point === "rescreen")).toBe(true);
    expect(done.new_hits).toBe(hits.length);
    const [cases] = await database.query<{ n: number; users: number }>(
      "select count(*)::int as n, count(distinct user_id)::int as users from compliance_cases",
    );
    expect(cases?.n).toBe(cases?.users);
    const [rescreened] = await database.query<{ at: Date | null }>(
      "select rescreened_at as at from sanctions_lists where id = $1",
      [list.id],
    );
    expect(rescreened?.at).not.toBeNull();
  }, 600_000);
});
