import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppDeps } from "@/server/app-deps";
import { queryRows } from "@/server/db/client";
import { type Consumer, consumerPass, ensureCursor } from "@/server/jobs/consumer";
import { consumersFor } from "@/server/jobs/consumers";
import { type ListenHub, startListenHub } from "@/server/jobs/listen-hub";
import { type Loop, type LoopOptions, startLoop } from "@/server/jobs/loop";
import { JobStats } from "@/server/jobs/stats";

/** How long drainConsumers waits for a transaction holding the log back to end. */
const DRAIN_WAIT_MS = 10_000;

/** The channel a commit that wrote an event notifies (emit_event, event-log.sql). */
export const JOBS_CHANNEL = "pillar_jobs";

export interface JobsOptions {
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
  addLoop(options: Omit<LoopOptions, "log" | "stats">): Loop;
  loop(name: string): Loop | undefined;
  /**
   * Runs every consumer until it has read the whole log as of now (tests, the CLI), waiting while a transaction
   * older than the last event's still runs: until it ends, the consumers cannot read past it (consumer.ts).
   */
  drainConsumers(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The one place background work starts (issue 49): the instance's LISTEN hub, the event-log consumers and every
 * loop added to the room. buildApp starts it; app close stops it.
 */
export async function startJobs(
  deps: AppDeps,
  log: FastifyBaseLogger,
  options: JobsOptions = {},
): Promise<JobsRoom> {
  const stats = new JobStats();
  const hub = startListenHub(deps.database, log);
  const loops = new Map<string, Loop>();
  const consumerLoops: Loop[] = [];
  const consumerNames: string[] = [];

  const addLoop = (loopOptions: Omit<LoopOptions, "log" | "stats">) => {
    if (loops.has(loopOptions.name)) throw new Error(`jobs: a loop named ${loopOptions.name} runs already`);
    const loop = startLoop({ ...loopOptions, log, stats });
    loops.set(loop.name, loop);
    return loop;
  };

  if (options.consumers !== false) {
    for (const consumer of options.consumerList ?? consumersFor(deps)) {
      await ensureCursor(deps.database.db, consumer.name);
      consumerNames.push(consumer.name);
      consumerLoops.push(
        addLoop({
          name: `consumer:${consumer.name}`,
          everyMs: options.consumerEveryMs ?? 1000,
          wakeDelayMs: options.consumerWakeDelayMs ?? 50,
          pass: consumerPass(deps.database.db, consumer, stats, log),
        }),
      );
    }
    if (consumerLoops.length > 0) {
      await hub.subscribe(JOBS_CHANNEL, {
        onPayload: () => {
          for (const loop of consumerLoops) loop.wake();
        },
        onReconnect: () => {
          for (const loop of consumerLoops) loop.wake();
        },
      });
    }
  }

  return {
    stats,
    hub,
    addLoop,
    loop: (name) => loops.get(name),
    async drainConsumers() {
      if (consumerLoops.length === 0) return;
      const { db } = deps.database;
      // The log as of now; a transaction still running anywhere in the cluster (another database's included: a
      // snapshot's xmin is the cluster's) may hold it back from the consumers for a moment.
      const [last] = await queryRows<{ xact: string; id: string }>(
        db,
        sql`select xact::text as xact, id::text as id from events order by xact desc, id desc limit 1`,
      );
      const behind = async () => {
        if (!last) return false;
        const [row] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from job_cursors
              where consumer in (select jsonb_array_elements_text(${JSON.stringify(consumerNames)}::jsonb))
                and (xact, event_id) < (${last.xact}::xid8, ${last.id}::bigint)`,
        );
        return (row?.n ?? 0) > 0;
      };
      const deadline = Date.now() + DRAIN_WAIT_MS;
      for (;;) {
        for (const loop of consumerLoops) await loop.drain();
        if (!(await behind())) return;
        if (Date.now() > deadline) throw new Error("jobs: the consumers did not reach the end of the log");
        await sleep(20);
      }
    },
    async close() {
      for (const loop of loops.values()) await loop.stop();
      await hub.close();
    },
  };
}
