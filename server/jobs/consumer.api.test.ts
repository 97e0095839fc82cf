import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Database, queryRows, type Tx } from "@/server/db/client";
import { type Consumer, consumerPass, ensureCursor, type JobEvent } from "@/server/jobs/consumer";
import { JobStats } from "@/server/jobs/stats";
import { createTestDatabase } from "@/tests/support/test-database";

// The jobs room's event log read by a consumer (decision 051), on PostgreSQL and on PGlite.
let database: Database;
const log = pino({ level: "silent" });

beforeAll(async () => {
  database = await createTestDatabase();
  await database.query(
    "create table consumed (consumer text, event_id bigint, primary key (consumer, event_id))",
  );
});
afterAll(async () => {
  await database.close();
});

const emit = (tx: Tx | Database["db"], kind: string, n: number) =>
  tx.execute(
    sql`insert into events (kind, user_id, payload) values (${kind}, null, ${JSON.stringify({ n })}::jsonb)`,
  );

/** A consumer that records each event it handles; the primary key fails a second handling of one event. */
function recorder(name: string, kinds: string[], fail?: (event: JobEvent) => boolean): Consumer {
  return {
    name,
    kinds,
    batchSize: 3,
    async handle(tx, events) {
      for (const event of events) {
        if (fail?.(event)) throw new Error(`refused ${event.id}`);
        await tx.execute(sql`insert into consumed values (${name}, ${event.id}::bigint)`);
      }
    },
  };
}

/**
 * Waits until every event written so far can be read: no transaction older than the newest one's is still open
 * anywhere on the server (other test files', other processes'), which would hold the log back (readAfter).
 */
async function settled() {
  for (let i = 0; i < 1500; i++) {
    const [row] = await queryRows(
      database.db,
      sql`select pg_snapshot_xmin(pg_current_snapshot()) > coalesce(max(xact), '0'::xid8) as settled from events`,
      z.object({ settled: z.boolean() }),
    );
    if (row?.settled) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("a transaction kept the event log back for 30 s");
}

/** Runs passes until one answers there is no more, as the loop's drain does. */
async function drainNow(pass: () => Promise<unknown>) {
  for (let i = 0; i < 100; i++) {
    const answer = (await pass()) as { done: number; more: boolean };
    if (!answer.more) return;
  }
  throw new Error("the consumer never caught up");
}

/** Drains once every event written so far can be read. */
async function drain(pass: () => Promise<unknown>) {
  await settled();
  await drainNow(pass);
}

const handled = async (name: string) =>
  (
    await queryRows(
      database.db,
      sql`select (e.payload->>'n')::int as n from consumed c join events e on e.id = c.event_id
          where c.consumer = ${name} order by e.xact, e.id`,
      z.object({ n: z.number() }),
    )
  ).map((r) => r.n);

describe("an event-log consumer", () => {
  it("starts at the end of the log and handles each later event of its kinds once, past the others", async () => {
    await emit(database.db, "before", 0);
    await ensureCursor(database.db, "a");
    for (let n = 1; n <= 7; n++) await emit(database.db, n % 2 ? "wanted" : "other", n);
    const pass = consumerPass(database.db, recorder("a", ["wanted"]), new JobStats(), log);
    await drain(pass);
    expect(await handled("a")).toEqual([1, 3, 5, 7]);
    await drain(pass);
    expect(await handled("a")).toEqual([1, 3, 5, 7]);
  });

  it("never skips an event whose transaction commits after a later one's", async () => {
    if (database.kind !== "pg") return; // one backend: PGlite runs no two transactions at once
    await ensureCursor(database.db, "b");
    const pass = consumerPass(database.db, recorder("b", ["wanted"]), new JobStats(), log);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    // The slow transaction takes its identity (and xact) first, then waits while a later one commits and the
    // consumer runs: reading "id > last" would move past it for good.
    let started!: () => void;
    const began = new Promise<void>((r) => {
      started = r;
    });
    const slow = database.db.transaction(async (tx) => {
      await emit(tx, "wanted", 100);
      started();
      await held;
    });
    await began;
    await emit(database.db, "wanted", 101);
    await drainNow(pass);
    expect(await handled("b")).toEqual([]);
    release();
    await slow;
    await drain(pass);
    expect((await handled("b")).sort()).toEqual([100, 101]);
  });

  it("runs on one instance at a time: two passes racing handle every event once", async () => {
    await ensureCursor(database.db, "c");
    for (let n = 1; n <= 20; n++) await emit(database.db, "wanted", n);
    const first = consumerPass(database.db, recorder("c", ["wanted"]), new JobStats(), log);
    const second = consumerPass(database.db, recorder("c", ["wanted"]), new JobStats(), log);
    await settled();
    await Promise.all([drainNow(first), drainNow(second), drainNow(first), drainNow(second)]);
    // Both may stop early when the other holds the cursor; a last pass finishes the log.
    await drain(first);
    expect(await handled("c")).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("rolls a failed batch back, retries alone, and skips an event that keeps failing into job_failures", async () => {
    await ensureCursor(database.db, "d");
    for (let n = 1; n <= 5; n++) await emit(database.db, "wanted", n);
    const stats = new JobStats();
    const pass = consumerPass(
      database.db,
      recorder("d", ["wanted"], (event) => (event.payload as { n: number }).n === 3),
      stats,
      log,
    );
    const outcomes: string[] = [];
    await settled();
    for (let i = 0; i < 10; i++) {
      try {
        const answer = (await pass()) as { more: boolean };
        outcomes.push("ok");
        if (!answer.more && outcomes.length > 4) break;
      } catch {
        outcomes.push("failed");
      }
    }
    expect(await handled("d")).toEqual([1, 2, 4, 5]);
    const failures = await queryRows(
      database.db,
      sql`select (e.payload->>'n')::int as n, f.attempts from job_failures f join events e on e.id = f.event_id
          where f.consumer = 'd'`,
      z.object({ n: z.number(), attempts: z.number() }),
    );
    expect(failures).toEqual([{ n: 3, attempts: 3 }]);
    expect(stats.consumers.get("d")?.failedEvents).toBe(1);
  });

  it("reads the log in its own order where ids cross a power of ten, each event once", async () => {
    await ensureCursor(database.db, "f");
    // One transaction's events numbered …7, …8, …9, …0, …1, …2 across a new digit: sorted as text ("1000" before
    // "998"), a batch's last row was not its last event, and the cursor moved past events never handled.
    const [{ next }] = await queryRows(
      database.db,
      sql`select (10 ^ (length(coalesce(max(id), 0)::text) + 1) - 3)::bigint::text as next from events`,
      z.object({ next: z.string() }),
    );
    // The identity became a sequence the partitioned parent owns (decision 063); setval moves either kind.
    await database.query(`select setval(pg_get_serial_sequence('events', 'id'), ${next}, false)`);
    await database.db.transaction(async (tx) => {
      for (let n = 1; n <= 6; n++) await emit(tx, "wanted", n);
    });
    await drain(consumerPass(database.db, recorder("f", ["wanted"]), new JobStats(), log));
    expect(await handled("f")).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("counts each claimed event's lag from its commit", async () => {
    await ensureCursor(database.db, "e");
    await emit(database.db, "wanted", 1);
    const stats = new JobStats();
    await drain(consumerPass(database.db, recorder("e", ["wanted"]), stats, log));
    expect(stats.consumers.get("e")?.handled).toBe(1);
    expect(stats.lagQuantile("e", 0.99)).toBeGreaterThanOrEqual(0);
  });
});
