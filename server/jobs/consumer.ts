import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import type { Pass } from "@/server/jobs/loop";
import type { JobStats } from "@/server/jobs/stats";

/** One row of the event log (migration 0041), as a consumer receives it. */
export interface JobEvent {
  /** The log's identity, as text (a bigint): the key a consumer's effects are idempotent by. */
  id: string;
  kind: string;
  userId: string | null;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/**
 * A consumer of the event log: its effects for a batch of the events it wants, written in `tx`, which also moves
 * its cursor past them. Committed together, a batch is handled once; rolled back (an error, a crash, a kill -9),
 * none of it happened and the next pass (here or on another instance) handles it again. Effects outside the
 * database (a wake-up, a push) go through afterCommit(tx, …).
 */
export interface Consumer {
  /** Its cursor's name in job_cursors and its label in /metrics; never renamed (a new name starts at the end). */
  name: string;
  /** The event kinds it handles ("all": every one); the cursor moves past the others too. */
  kinds: readonly string[] | "all";
  /** Events read per pass; default 200. */
  batchSize?: number;
  handle(tx: Tx, events: JobEvent[]): Promise<void>;
}

/** Tries before an event that keeps failing alone is skipped into job_failures. */
const MAX_ATTEMPTS = 3;

const cursorRow = z.object({ xact: z.string(), event_id: z.string() });
type Cursor = z.output<typeof cursorRow>;

// created_at comes back as its text (Drizzle leaves timestamps unparsed on both drivers): toEvent makes the Date.
const eventRow = z.object({
  id: z.string(),
  xact: z.string(),
  kind: z.string(),
  user_id: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  lag_ms: z.number(),
});
type EventRow = z.output<typeof eventRow>;

/**
 * The next events after `cursor`, in (xact, id) order, among those whose transactions are all over: every
 * transaction older than this snapshot's xmin has committed or rolled back, so no row can later appear before
 * the ones read (an identity alone is not commit order). A long transaction holds the log back, never skips it.
 */
function readAfter(tx: Tx, cursor: Cursor, limit: number) {
  return queryRows(
    tx,
    sql`select id::text as id, xact::text as xact, kind, user_id, payload, created_at,
          (extract(epoch from clock_timestamp() - created_at) * 1000)::float8 as lag_ms
        from events
        where (xact, id) > (${cursor.xact}::xid8, ${cursor.event_id}::bigint)
          and xact < pg_snapshot_xmin(pg_current_snapshot())
        -- The table's columns, not the text aliases above: "1000" sorts before "999".
        order by events.xact, events.id
        limit ${limit}`,
    eventRow,
  );
}

const toEvent = (row: EventRow): JobEvent => ({
  id: row.id,
  kind: row.kind,
  userId: row.user_id,
  payload: row.payload,
  createdAt: new Date(row.created_at),
});

/** Locks the consumer's cursor row, or answers null when another instance holds it (it is running this consumer). */
async function lockCursor(tx: Tx, name: string): Promise<Cursor | null> {
  const [cursor] = await queryRows(
    tx,
    sql`select xact::text as xact, event_id::text as event_id from job_cursors
        where consumer = ${name} for update skip locked`,
    cursorRow,
  );
  return cursor ?? null;
}

async function moveCursor(tx: Tx, name: string, last: EventRow) {
  await tx.execute(sql`update job_cursors set xact = ${last.xact}::xid8, event_id = ${last.id}::bigint,
    updated_at = now() where consumer = ${name}`);
}

/**
 * Creates the consumer's cursor when it has none. A new consumer starts at the end of the log (what happened
 * before it existed was handled by the code it replaces).
 */
export async function ensureCursor(db: Db, name: string) {
  await db.execute(sql`insert into job_cursors (consumer, xact, event_id)
    select ${name}, coalesce(max(xact), '0'::xid8), coalesce(max(id), 0) from events
    on conflict (consumer) do nothing`);
}

/**
 * A consumer as a loop pass: one batch in one transaction with the cursor's move. A batch that fails is retried
 * one event at a time; an event failing MAX_ATTEMPTS times alone is recorded in job_failures and skipped, so one
 * bad event cannot stop the log behind it.
 */
export function consumerPass(
  db: Db,
  consumer: Consumer,
  stats: JobStats | undefined,
  log: FastifyBaseLogger,
): Pass {
  const batchSize = consumer.batchSize ?? 200;
  const wants =
    consumer.kinds === "all"
      ? () => true
      : (row: EventRow) => (consumer.kinds as readonly string[]).includes(row.kind);
  let alone = false;
  let attempts = 0;

  const runBatch = (size: number) =>
    db.transaction(async (tx) => {
      const cursor = await lockCursor(tx, consumer.name);
      if (!cursor) return { done: 0, more: false, failedAt: null as EventRow | null };
      const rows = await readAfter(tx, cursor, size);
      if (rows.length === 0) return { done: 0, more: false, failedAt: null };
      const wanted = rows.filter(wants);
      stats?.claimed(
        consumer.name,
        wanted.map((row) => row.lag_ms),
      );
      if (wanted.length > 0) await consumer.handle(tx, wanted.map(toEvent));
      await moveCursor(tx, consumer.name, rows[rows.length - 1]);
      return { done: wanted.length, more: rows.length === size, failedAt: null };
    });

  /** Records the event that failed alone too often and moves the cursor past it. */
  const skip = (err: unknown) =>
    db.transaction(async (tx) => {
      const cursor = await lockCursor(tx, consumer.name);
      if (!cursor) return;
      const [row] = await readAfter(tx, cursor, 1);
      if (!row) return;
      const message = err instanceof Error ? err.message : String(err);
      await tx.execute(sql`insert into job_failures (consumer, event_id, attempts, error)
        values (${consumer.name}, ${row.id}::bigint, ${attempts}, ${message.slice(0, 2000)})
        on conflict (consumer, event_id) do nothing`);
      await moveCursor(tx, consumer.name, row);
      stats?.eventFailed(consumer.name);
      log.error({ err, consumer: consumer.name, eventId: row.id }, "jobs: event skipped after its retries");
    });

  return async () => {
    try {
      const result = await runBatch(alone ? 1 : batchSize);
      alone = false;
      attempts = 0;
      return { done: result.done, more: result.more };
    } catch (err) {
      if (!alone) {
        alone = true;
        attempts = 0;
      }
      attempts += 1;
      if (attempts < MAX_ATTEMPTS) throw err;
      await skip(err);
      alone = false;
      attempts = 0;
      return { done: 0, more: true };
    }
  };
}
