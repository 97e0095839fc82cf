import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AppDeps } from "@/server/app-deps";
import { type Db, queryRows } from "@/server/db/client";
import { type Consumer, consumerPass, ensureCursor } from "@/server/jobs/consumer";
import { consumersFor } from "@/server/jobs/consumers";
import { type ListenHub, startListenHub } from "@/server/jobs/listen-hub";
import { type Loop, type LoopSpec, startLoop } from "@/server/jobs/loop";
import { type LoopsOptions, loopsFor } from "@/server/jobs/loops";
import { JobStats } from "@/server/jobs/stats";

/** The channel a commit that wrote an event notifies (emit_event, event-log.sql). */
export const JOBS_CHANNEL = "pillar_jobs";
/** How long drainConsumers waits for the transactions that hold the log back. */
const DRAIN_WAIT_MS = 30_000;

/** Whether the consumer's cursor is at or past the event. */
async function cursorPast(db: Db, consumer: string, event: { xact: string; id: string }) {
  const [row] = await queryRows(
    db,
    sql`select (xact, event_id) >= (${event.xact}::xid8, ${event.id}::bigint) as past
        from job_cursors where consumer = ${consumer}`,
    z.object({ past: z.boolean() }),
  );
  return row?.past === true;
}

export interface JobsOptions extends LoopsOptions {
  /** Run the event-log consumers (default true); tests that look at the log before it is consumed say false. */
  consumers?: boolean;
  /** A consumer's pass when nothing woke it (a lost notification); default 1 s. */
  consumerEveryMs?: number;
  /** How long a wake-up waits so a burst of commits shares one batch; default 50 ms. */
  consumerWakeDelayMs?: number;
  /** Replaces consumersFor(deps) (tests of the room itself). */
  consumerList?: Consumer[];
}

export interface JobsRoom {
  stats: JobStats;
  hub: ListenHub;
  /** Starts a loop in the room: stopped with it, counted in its /metrics. */
  addLoop(spec: LoopSpec): Loop;
  loop(name: string): Loop | undefined;
  /**
   * Runs every consumer until it has read the whole log as of now (tests, the CLI), waiting up to 30 s for
   * transactions that hold the log back.
   */
  drainConsumers(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The one place background work starts (decision 051): the instance's LISTEN hub, the event-log consumers
 * (consumers.ts) and every loop (loops.ts). buildApp starts it before anything that listens; app close stops
 * every loop, waiting for their running passes, then the hub, before the database closes.
 */
export async function startJobs(
  deps: AppDeps,
  log: FastifyBaseLogger,
  options: JobsOptions = {},
): Promise<JobsRoom> {
  const { db } = deps.database;
  const stats = new JobStats();
  const hub = startListenHub(deps.database, log);
  const loops = new Map<string, Loop>();
  const consumerLoops: { name: string; loop: Loop }[] = [];

  const addLoop = (spec: LoopSpec) => {
    if (loops.has(spec.name)) throw new Error(`jobs: a loop named ${spec.name} runs already`);
    const loop = startLoop({ ...spec, log, stats });
    loops.set(loop.name, loop);
    return loop;
  };

  if (options.consumers !== false) {
    for (const consumer of options.consumerList ?? consumersFor(deps)) {
      const pass = consumerPass(db, consumer, stats, log);
      // Made before the app serves, so a new consumer starts at the end of the log as of its start. On a database
      // that does not answer the app starts all the same (its requests answer 503), and the first pass that
      // reaches the database makes the cursor.
      let hasCursor = await ensureCursor(db, consumer.name).then(
        () => true,
        (err: unknown) => {
          log.warn(
            { err, consumer: consumer.name },
            "jobs: cursor not made at start; the first pass makes it",
          );
          return false;
        },
      );
      const loop = addLoop({
        name: `consumer:${consumer.name}`,
        everyMs: options.consumerEveryMs ?? 1000,
        wakeDelayMs: options.consumerWakeDelayMs ?? 50,
        async pass() {
          if (!hasCursor) await ensureCursor(db, consumer.name);
          hasCursor = true;
          return pass();
        },
      });
      consumerLoops.push({ name: consumer.name, loop });
    }
    if (consumerLoops.length > 0) {
      const wakeAll = () => {
        for (const { loop } of consumerLoops) loop.wake();
      };
      await hub.subscribe(JOBS_CHANNEL, { onPayload: wakeAll, onReconnect: wakeAll });
    }
  }

  for (const spec of await loopsFor(deps, log, options)) addLoop(spec);

  return {
    stats,
    hub,
    addLoop,
    loop: (name) => loops.get(name),
    async drainConsumers() {
      // The log's last event as of now. A transaction still open anywhere on the server keeps the events after
      // it from the consumers (consumer.ts reads only past the oldest one), so a drain that found nothing to
      // read is tried again until every cursor has passed that event.
      const [last] = await queryRows(
        db,
        sql`select xact::text as xact, id::text as id from events order by events.xact desc, events.id desc limit 1`,
        z.object({ xact: z.string(), id: z.string() }),
      );
      const deadline = Date.now() + DRAIN_WAIT_MS;
      for (const { name, loop } of consumerLoops) {
        for (;;) {
          await loop.drain();
          if (!last || (await cursorPast(db, name, last))) break;
          if (Date.now() > deadline)
            throw new Error(
              `jobs: consumer ${name} is still behind event ${last.id} (a transaction kept open?)`,
            );
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
    async close() {
      await Promise.all([...loops.values()].map((loop) => loop.stop()));
      await hub.close();
    },
  };
}
