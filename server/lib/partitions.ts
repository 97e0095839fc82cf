import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { type DbOrTx, queryRows } from "@/server/db/client";
import type { LoopSpec } from "@/server/jobs/loop";
import { RETENTION } from "@/server/lib/housekeeping";

/** Months made ahead of the current one: a failed pass (a lock not had within 200 ms) has weeks to succeed. */
export const PREMAKE_MONTHS = 3;

/**
 * Each partitioned table's retention (decision 063): a month is dropped once its last instant is this old, so a
 * row lives between the retention and the retention plus a month. The ledger's transactions and the audit log
 * are kept (no entry): their months stay for the bank's record keeping.
 */
export const PARTITION_RETENTION: Record<string, string> = {
  notifications: `${RETENTION.notificationMonths} months`,
  user_events: `${RETENTION.userEventDays} days`,
  events: `${RETENTION.eventLogDays} days`,
};

const names = async (db: DbOrTx, query: ReturnType<typeof sql>) =>
  (await queryRows(db, query, z.object({ names: z.array(z.string()).nullable() })))[0]?.names ?? [];

/** Creates the coming months' partitions of every partitioned table; idempotent. Returns the partitions made. */
export async function premakePartitions(db: DbOrTx, months = PREMAKE_MONTHS): Promise<string[]> {
  return names(db, sql`select partitions_premake(${months}::int) as names`);
}

/** Drops the whole months past each table's retention. Returns the partitions dropped. */
export async function dropExpiredPartitions(
  db: DbOrTx,
  retention: Record<string, string> = PARTITION_RETENTION,
  now = new Date(),
): Promise<string[]> {
  const dropped: string[] = [];
  for (const [table, keep] of Object.entries(retention)) {
    dropped.push(
      ...(await names(
        db,
        sql`select partitions_drop_expired(${table}, ${keep}::interval, ${now.toISOString()}::timestamptz) as names`,
      )),
    );
  }
  return dropped;
}

/**
 * The partitions' loop of the jobs room: at start and hourly. Every instance may run it: the SQL functions take
 * one advisory lock, so a second runner waits and then finds the work done.
 */
export function partitionLoop(db: DbOrTx, log: FastifyBaseLogger, intervalMs = 60 * 60_000): LoopSpec {
  return {
    name: "partitions",
    everyMs: intervalMs,
    async pass() {
      const made = await premakePartitions(db);
      const dropped = await dropExpiredPartitions(db);
      if (made.length + dropped.length > 0)
        log.info({ made, dropped }, "partitions: months made and dropped");
      return made.length + dropped.length;
    },
  };
}

/**
 * A lower bound on the created_at of a transaction written with the row that names it (a transfer request's
 * transaction is written by the same statement, at the same created_at): a lookup by id alone reads every
 * month's partition, with this bound only the last months'. A day of slack for rows written by older code.
 */
export const writtenSince = (rowCreatedAt: Date) => new Date(rowCreatedAt.getTime() - 24 * 60 * 60_000);
