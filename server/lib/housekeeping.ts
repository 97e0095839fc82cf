import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { NOTIFICATION_RETENTION_MONTHS } from "@/contract/notifications";
import type { DbOrTx } from "@/server/db/client";
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
  /** The notification centre keeps 13 months (issue 32 §2). */
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
 * Deletes what can never be used again: sessions past their absolute or idle expiry, old one-time codes,
 * old idempotency records, old delivered mail, and (given the storage) half-written files and uploads no KYC
 * application took within a day. Idempotent, so every instance may run it.
 */
export async function sweepExpired(db: DbOrTx, storage?: ObjectStorage): Promise<SweepReport> {
  const sessions = await db.execute(sql`
    delete from sessions
    where expires_at < now() or last_seen_at < now() - make_interval(secs => ${SESSION_IDLE_SECONDS})`);
  const oneTimeCodes = await db.execute(sql`
    delete from one_time_codes where expires_at < now() - make_interval(days => ${RETENTION.oneTimeCodeDays})`);
  const idempotencyKeys = await db.execute(sql`
    delete from idempotency_keys where created_at < now() - make_interval(days => ${RETENTION.idempotencyKeyDays})`);
  const sentMail = await db.execute(sql`
    delete from mail_outbox
    where status = 'sent' and sent_at < now() - make_interval(days => ${RETENTION.sentMailDays})`);
  const authChallenges = await db.execute(sql`
    delete from auth_challenges where expires_at < now() - make_interval(days => ${RETENTION.challengeDays})`);
  const freezeLinks = await db.execute(sql`
    delete from freeze_links
    where used_at is null and expires_at < now() - make_interval(days => ${RETENTION.challengeDays})`);
  const notifications = await db.execute(sql`
    delete from notifications where created_at < now() - make_interval(months => ${RETENTION.notificationMonths})
      and ${rowRetention("notifications")}`);
  const userEvents = await db.execute(sql`
    delete from user_events where created_at < now() - make_interval(days => ${RETENTION.userEventDays})
      and ${rowRetention("user_events")}`);
  const events = await db.execute(sql`
    delete from events e where e.created_at < now() - make_interval(days => ${RETENTION.eventLogDays})
      and not exists (select 1 from job_cursors c where (c.xact, c.event_id) < (e.xact, e.id))
      and ${rowRetention("events")}`);
  return {
    sessions: count(sessions),
    oneTimeCodes: count(oneTimeCodes),
    idempotencyKeys: count(idempotencyKeys),
    sentMail: count(sentMail),
    authChallenges: count(authChallenges),
    freezeLinks: count(freezeLinks),
    notifications: count(notifications),
    userEvents: count(userEvents),
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
