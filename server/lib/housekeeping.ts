import { type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { NOTIFICATION_RETENTION_MONTHS } from "@/contract/notifications";
import { type DbOrTx, queryRows } from "@/server/db/client";
import type { LoopSpec } from "@/server/jobs/loop";
import { SESSION_IDLE_SECONDS } from "@/server/lib/session";
import type { ObjectStorage } from "@/server/lib/storage/storage";
import { sweepUnattachedUploads } from "@/server/lib/storage/uploads";

/** How long rows outlive their use. Idempotency keys: a client retrying within a week still gets its first answer. */
export const RETENTION = {
  idempotencyKeyDays: 7,
  /** Spent or expired codes stay a day: resend limits and audits look back at recent ones. */
  oneTimeCodeDays: 1,
  /** Delivered mail carries codes and links in plain text; keep it only as long as support may ask. */
  sentMailDays: 7,
  /** Half-done logins, WebAuthn and step-up challenges, and dead "This wasn't me" links: a day past their end. */
  challengeDays: 1,
  /** The notification centre keeps 13 months (decision 034). */
  notificationMonths: NOTIFICATION_RETENTION_MONTHS,
  /** Pushed notices serve reconnects (Last-Event-ID); a client away for a week refetches everything instead. */
  userEventDays: 7,
  /**
   * The jobs room's event log (migration 0041): a week for looking back at what the consumers did, and never an
   * event some consumer has not read yet (a consumer stopped for longer keeps its backlog).
   */
  eventLogDays: 7,
  /** A `.tmp` older than this was left by a process that died mid-upload (a live write takes seconds). */
  partialWriteMs: 60 * 60_000,
} as const;

export interface SweepReport {
  sessions: number;
  oneTimeCodes: number;
  idempotencyKeys: number;
  sentMail: number;
  authChallenges: number;
  freezeLinks: number;
  notifications: number;
  userEvents: number;
  events: number;
  partialUploads: number;
  unattachedUploads: number;
}

/**
 * True where `table` is still one table (PGlite, or PostgreSQL before migration 0053): a partitioned table's
 * retention drops whole months instead (server/lib/partitions.ts, decision 063). A constant the planner
 * evaluates once, so a partitioned table's delete scans nothing.
 */
const rowRetention = (table: string) =>
  sql`not exists (select 1 from partitioned_tables p where p.table_name = ${table} and p.converted_at is not null)`;

const count = (result: unknown) => {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return r.rowCount ?? r.affectedRows ?? 0;
};

/**
 * How much one delete statement may touch (decision 062): rows for a sweep led by an index on its condition,
 * heap blocks (8 KiB each, a few dozen narrow rows) for one that walks the table. Each statement is its own
 * short transaction, so no lock is held for long and the rows a request is writing wait at most one batch.
 */
export interface SweepLimits {
  rows: number;
  blocks: number;
}
export const SWEEP_LIMITS: SweepLimits = { rows: 5000, blocks: 128 };

/**
 * Deletes `table`'s rows matching `condition` at most `rows` at a time, found through an index on the condition:
 * each batch costs what it deletes. The condition is repeated on the delete itself, so a row changed since the
 * batch was chosen (a session seen again) is judged on its new version.
 */
async function deleteByIndex(db: DbOrTx, table: string, condition: SQL, rows: number): Promise<number> {
  const name = sql.identifier(table);
  let deleted = 0;
  for (;;) {
    const batch = count(
      await db.execute(sql`delete from ${name} where ctid = any(array(
        select ctid from ${name} where ${condition} limit ${rows})) and ${condition}`),
    );
    deleted += batch;
    if (batch < rows) return deleted;
  }
}

/**
 * Deletes `table`'s rows matching `condition` by walking its heap `blocks` at a time (a TID range scan): for
 * tables with no index on the condition, one pass over the table whatever it holds, never a whole-table
 * statement, and no index to build (nor to maintain on every sign-in) for the sweep's sake.
 */
async function deleteByBlocks(db: DbOrTx, table: string, condition: SQL, blocks: number): Promise<number> {
  const name = sql.identifier(table);
  const [size] = await queryRows(
    db,
    sql`select (pg_relation_size(${table}::regclass) / current_setting('block_size')::int)::int as pages`,
    z.object({ pages: z.number() }),
  );
  let deleted = 0;
  // Rows written after the walk began land past its end: new, so not yet due.
  for (let first = 0; first < (size?.pages ?? 0); first += blocks) {
    deleted += count(
      await db.execute(sql`delete from ${name}
        where ctid >= ${`(${first},0)`}::tid and ctid < ${`(${first + blocks},0)`}::tid and ${condition}`),
    );
  }
  return deleted;
}

/**
 * Deletes what can never be used again: sessions past their absolute or idle expiry, old one-time codes,
 * old idempotency records, old delivered mail, and (given the storage) half-written files and uploads no KYC
 * application took within a day. Idempotent, so every instance may run it. Every delete is bounded (SweepLimits);
 * notifications and the event log keep one statement each here: on PostgreSQL their retention drops monthly
 * partitions (decision 063).
 */
export async function sweepExpired(
  db: DbOrTx,
  storage?: ObjectStorage,
  limits: SweepLimits = SWEEP_LIMITS,
): Promise<SweepReport> {
  const sessions = await deleteByBlocks(
    db,
    "sessions",
    sql`(expires_at < now() or last_seen_at < now() - make_interval(secs => ${SESSION_IDLE_SECONDS}))`,
    limits.blocks,
  );
  const oneTimeCodes = await deleteByBlocks(
    db,
    "one_time_codes",
    sql`expires_at < now() - make_interval(days => ${RETENTION.oneTimeCodeDays})`,
    limits.blocks,
  );
  const idempotencyKeys = await deleteByIndex(
    db,
    "idempotency_keys",
    sql`created_at < now() - make_interval(days => ${RETENTION.idempotencyKeyDays})`,
    limits.rows,
  );
  const sentMail = await deleteByBlocks(
    db,
    "mail_outbox",
    sql`(status = 'sent' and sent_at < now() - make_interval(days => ${RETENTION.sentMailDays}))`,
    limits.blocks,
  );
  const authChallenges = await deleteByIndex(
    db,
    "auth_challenges",
    sql`expires_at < now() - make_interval(days => ${RETENTION.challengeDays})`,
    limits.rows,
  );
  const freezeLinks = await deleteByBlocks(
    db,
    "freeze_links",
    sql`(used_at is null and expires_at < now() - make_interval(days => ${RETENTION.challengeDays}))`,
    limits.blocks,
  );
  const notifications = await db.execute(sql`
    delete from notifications where created_at < now() - make_interval(months => ${RETENTION.notificationMonths})
      and ${rowRetention("notifications")}`);
  const userEvents = await deleteByIndex(
    db,
    "user_events",
    sql`created_at < now() - make_interval(days => ${RETENTION.userEventDays}) and ${rowRetention("user_events")}`,
    limits.rows,
  );
  const events = await db.execute(sql`
    delete from events e where e.created_at < now() - make_interval(days => ${RETENTION.eventLogDays})
      and not exists (select 1 from job_cursors c where (c.xact, c.event_id) < (e.xact, e.id))
      and ${rowRetention("events")}`);
  return {
    sessions,
    oneTimeCodes,
    idempotencyKeys,
    sentMail,
    authChallenges,
    freezeLinks,
    notifications: count(notifications),
    userEvents,
    events: count(events),
    partialUploads: storage ? await storage.sweepPartialWrites(RETENTION.partialWriteMs) : 0,
    unattachedUploads: storage ? await sweepUnattachedUploads(db, storage) : 0,
  };
}

/**
 * The sweep as a loop of the jobs room: at start and every `intervalMs`; a failed sweep is retried after the
 * loop's backoff. Every instance may run it (sweepExpired is idempotent).
 */
export function housekeepingLoop(
  db: DbOrTx,
  storage: ObjectStorage,
  log: FastifyBaseLogger,
  intervalMs = 15 * 60_000,
): LoopSpec {
  return {
    name: "housekeeping",
    everyMs: intervalMs,
    async pass() {
      const report = await sweepExpired(db, storage);
      log.info({ swept: report }, "housekeeping: expired rows deleted");
      return Object.values(report).reduce((sum, n) => sum + n, 0);
    },
  };
}
