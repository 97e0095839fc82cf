import type { FastifyBaseLogger } from "fastify";
import type { AppDeps } from "@/server/app-deps";
import { type Consumer, consumerPass, ensureCursor } from "@/server/jobs/consumer";
import { consumersFor } from "@/server/jobs/consumers";
import { type ListenHub, startListenHub } from "@/server/jobs/listen-hub";
import { type Loop, type LoopSpec, startLoop } from "@/server/jobs/loop";
import { type LoopsOptions, loopsFor } from "@/server/jobs/loops";
import { JobStats } from "@/server/jobs/stats";

/** The channel a commit that wrote an event notifies (emit_event, event-log.sql). */
export const JOBS_CHANNEL = "pillar_jobs";

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
  /** Runs every consumer until it has read the whole log as of now (tests, the CLI). */
  drainConsumers(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The one place background work starts (issue 49): the instance's LISTEN hub, the event-log consumers
 * (consumers.ts) and every loop (loops.ts). buildApp starts it before anything that listens; app close stops
 * every loop, waiting for their running passes, then the hub, before the database closes.
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

  const addLoop = (spec: LoopSpec) => {
    if (loops.has(spec.name)) throw new Error(`jobs: a loop named ${spec.name} runs already`);
    const loop = startLoop({ ...spec, log, stats });
    loops.set(loop.name, loop);
    return loop;
  };

  if (options.consumers !== false) {
    for (const consumer of options.consumerList ?? consumersFor(deps)) {
      await ensureCursor(deps.database.db, consumer.name);
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

  for (const spec of await loopsFor(deps, log, options)) addLoop(spec);

  return {
    stats,
    hub,
    addLoop,
    loop: (name) => loops.get(name),
    async drainConsumers() {
      for (const loop of consumerLoops) await loop.drain();
    },
    async close() {
      await Promise.all([...loops.values()].map((loop) => loop.stop()));
      await hub.close();
    },
  };
}
