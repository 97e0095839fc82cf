import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Database, queryRows } from "@/server/db/client";
import { isUnavailableError } from "@/server/lib/errors";
import { waitFor } from "@/tests/support/server-process";
import { createTestDatabase } from "@/tests/support/test-database";

// A failover (decision 027) ends the app's connections to the old primary, some of them in the middle of a
// transaction. node-postgres then emits 'error' on the client; a pool only listens on its idle clients, so on
// a client checked out for a transaction that event had no listener and ended the whole process (every
// instance at once in the failover soak, while staff credits and chat messages were in flight). The
// transaction must fail like any lost connection (503 retryable), and the process must go on.
const onPostgres = Boolean(process.env.DATABASE_URL);
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

async function terminate(pid: number) {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    await admin.query("select pg_terminate_backend($1)", [pid]);
  } finally {
    await admin.end();
  }
}

describe.runIf(onPostgres)("a connection lost in the middle of a transaction", () => {
  it("fails that transaction as unavailable, raises nothing at the process, and the pool serves the next one", async () => {
    const uncaught: unknown[] = [];
    const record = (err: unknown) => uncaught.push(err);
    process.on("uncaughtException", record);
    try {
      const outcome = await database.db
        .transaction(async (tx) => {
          const [row] = await queryRows(
            tx,
            sql`select pg_backend_pid() as pid`,
            z.object({ pid: z.number() }),
          );
          await terminate(row!.pid);
          // The client hears its socket close while it is checked out and idle between two statements.
          await waitFor("the server to end the connection", async () => {
            const alive = await database.query<{ n: number }>(
              "select count(*)::int as n from pg_stat_activity where pid = $1",
              [row!.pid],
            );
            return alive[0]!.n === 0;
          });
          await new Promise((resolve) => setTimeout(resolve, 100));
          await tx.execute(sql`select 1`);
          return "committed";
        })
        .catch((err: unknown) => err);
      expect(uncaught.map(String)).toEqual([]);
      expect(outcome).toBeInstanceOf(Error);
      expect(isUnavailableError(outcome), `${outcome} / ${(outcome as Error).cause}`).toBe(true);
      const [next] = await database.query<{ ok: number }>("select 1 as ok");
      expect(next!.ok).toBe(1);
    } finally {
      process.off("uncaughtException", record);
    }
  });
});
