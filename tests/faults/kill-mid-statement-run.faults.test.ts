import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedScale } from "@/scripts/bench/scale/seed";
import { getStatementSummary } from "@/server/features/statements/statement-data";
import { parseStatementMonth } from "@/server/features/statements/statement-month";
import { findStoredStatement, previousMonth } from "@/server/features/statements/statement-run";
import { verifyLedger } from "@/server/lib/ledger";
import { createScratchDatabase, type ScratchDatabase } from "@/tests/support/scratch-database";
import { type ServerProcess, startServer, waitFor } from "@/tests/support/server-process";

// Decision 062: the month-end statement run is a job in the jobs room, a batch of 1,000 customers per
// transaction with the run's cursor. A server killed with SIGKILL while a batch is open loses only that batch;
// started again, it goes on from the cursor and finishes the month once: one statement per customer, the run's
// count equal to what the table holds, and every stored figure the one the live statement computes.
const CUSTOMERS = 15_000;

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
  total: number;
  done: number;
  cursor: string | null;
}

describe("a server killed with SIGKILL during the month-end statement run", () => {
  it("resumes from the run's cursor after a restart and stores each customer's month once, as computed", async () => {
    const { database } = scratch;
    // Three years of history per customer, as the scale bench seeds it (the month before this one included).
    await seedScale(scratch.url, { customers: CUSTOMERS });
    const month = previousMonth();
    const run = async () =>
      (
        await database.query<RunRow>(
          "select status, total, done, cursor::text from statement_runs where month = $1",
          [month],
        )
      )[0];

    // The server's jobs room queues last month's run at its start (the month is closed) and works it.
    server = await startServer({ DATABASE_URL: scratch.url, PGAPPNAME: "pillar-statements" });
    await waitFor(
      "a batch in flight after the first ones committed",
      async () => {
        const now = await run();
        if (!now) return false;
        if (now.status === "done") throw new Error("the run finished before the kill: seed more customers");
        if (now.done < 2 * 1000) return false;
        const [holder] = await database.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity a
           where a.datname = current_database() and a.application_name = 'pillar-statements'
             and a.xact_start is not null
             and exists (select 1 from pg_locks l where l.pid = a.pid and l.relation = 'statement_runs'::regclass)`,
        );
        return (holder?.n ?? 0) > 0;
      },
      { timeoutMs: 180_000, intervalMs: 10 },
    );
    await server.crash();
    const atKill = (await run())!;
    expect(atKill.status).toBe("running");
    expect(atKill.done).toBeLessThan(atKill.total);
    // Only whole batches committed: the count, the cursor and the stored rows moved together.
    const [stored] = await database.query<{ n: number; last: string | null }>(
      `select count(*)::int as n,
         (select user_id::text from statements where month = $1 order by user_id desc limit 1) as last
       from statements where month = $1`,
      [month],
    );
    expect(stored?.n).toBe(atKill.done);
    expect(stored?.last).toBe(atKill.cursor);

    server = await startServer({ DATABASE_URL: scratch.url, PGAPPNAME: "pillar-statements" });
    await waitFor("the run to finish", async () => (await run())?.status === "done", {
      timeoutMs: 240_000,
      intervalMs: 250,
    });
    const done = (await run())!;
    const [after] = await database.query<{ n: number; users: number; wallets: number }>(
      `select count(*)::int as n, count(distinct user_id)::int as users,
         (select count(*)::int from ledger_accounts
          where kind = 'wallet' and user_id is not null and created_at < $2) as wallets
       from statements where month = $1`,
      [month, parseStatementMonth(month).end.toISOString()],
    );
    // Every wallet of the month once; the run's count is what the table holds (no batch counted twice, none lost).
    expect(done.total).toBe(after?.wallets);
    expect(after?.n).toBe(done.total);
    expect(after?.users).toBe(done.total);
    expect(done.done).toBe(done.total);

    // Stored figures equal the live computation, on customers either side of the kill's cursor.
    const sample = await database.query<{ user_id: string; wallet_id: string }>(
      `(select user_id::text, wallet_id::text from statements where month = $1 and user_id <= $2::uuid
         order by user_id desc limit 5)
       union all
       (select user_id::text, wallet_id::text from statements where month = $1 and user_id > $2::uuid
         order by user_id limit 5)`,
      [month, atKill.cursor],
    );
    expect(sample).toHaveLength(10);
    const period = parseStatementMonth(month);
    for (const s of sample) {
      const owner = {
        userId: s.user_id,
        walletId: s.wallet_id,
        name: "",
        address: null,
        openedMonth: month,
        account: null,
      };
      const live = await getStatementSummary(database.db, owner, period);
      const kept = await findStoredStatement(database.db, s.user_id, month);
      expect(kept).toMatchObject(live);
    }
    expect((await verifyLedger(database.db)).ok).toBe(true);
  }, 900_000);
});
