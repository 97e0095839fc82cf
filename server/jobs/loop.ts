import type { FastifyBaseLogger } from "fastify";
import type { JobStats } from "@/server/jobs/stats";

/**
 * One pass of a background loop: does what is due and answers how much it did (a number, for the logs and
 * /metrics) or nothing. A pass that did a full batch answers `{ more: true }` to be run again at once.
 */
export type Pass = () => Promise<number | undefined | PassAnswer>;

/** A pass's full answer; `progress` is a long run's position (the statement run's customers done of total). */
export interface PassAnswer {
  done: number;
  more: boolean;
  progress?: { done: number; total: number };
}

export interface LoopOptions {
  /** The loop's name in logs and /metrics (`jobs_passes_total{job=…}`), unique in its room. */
  name: string;
  /** Time between passes when nothing wakes the loop. */
  everyMs: number;
  pass: Pass;
  log: FastifyBaseLogger;
  stats?: JobStats;
  /** First delay after a failed pass, doubled per failure up to `maxBackoffMs`; default `everyMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /**
   * How long a wake-up waits before its pass, so the wake-ups of a burst share one pass and one batch (a consumer
   * woken by every commit under load); default 0.
   */
  wakeDelayMs?: number;
  /** How long after the start the first pass runs; default 0 (at once). */
  firstAfterMs?: number;
  /**
   * An in-process source of wake-ups (mail queued by a commit in this process, a schedule made for today): given
   * the loop's wake, answers the unsubscribe, called when the loop stops.
   */
  wakeOn?: (wake: () => void) => () => void;
  /** Releases what the passes hold open (an SMTP pool), once the last pass has ended. */
  onStop?: () => void | Promise<void>;
}

/** A loop as a feature describes it: the jobs room adds the log and the stats (`app.jobs.addLoop`). */
export type LoopSpec = Omit<LoopOptions, "log" | "stats">;

export interface Loop {
  readonly name: string;
  /** Runs a pass as soon as the one running (if any) ends; wake-ups while one runs collapse into one. */
  wake(): void;
  /** Runs passes until one answers it is done (tests, a drain before stopping); waits for a running pass first. */
  drain(): Promise<void>;
  /** No pass starts after this; waits for the running one. */
  stop(): Promise<void>;
}

/**
 * The one way a background loop runs (decision 051): a pass at a time per loop and process, woken early by
 * `wake` (a LISTEN wake-up or an in-process commit), backed off after failures, timed and counted in
 * /metrics, and stopped cleanly at shutdown. What runs only once across instances takes its own lock inside
 * the pass (the consumers' cursor rows, the deposit watcher's advisory lock, the mail outbox's SKIP LOCKED
 * leases): the loop knows nothing of other instances.
 */
export function startLoop(options: LoopOptions): Loop {
  const { name, everyMs, pass, log, stats } = options;
  const backoffMs = options.backoffMs ?? everyMs;
  const maxBackoffMs = options.maxBackoffMs ?? Math.max(everyMs, 60_000);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wakeAgain = false;
  let failures = 0;
  let dueAt = 0;
  let stopping: Promise<void> | undefined;
  const wakeDelayMs = options.wakeDelayMs ?? 0;

  function schedule(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    dueAt = Date.now() + ms;
    timer = setTimeout(tick, ms);
    timer.unref();
  }

  /** One pass, counted; answers whether another should run at once. */
  async function runPass(): Promise<boolean> {
    const startedAt = performance.now();
    try {
      const answer = await pass();
      failures = 0;
      const { done, more, progress } =
        typeof answer === "object" ? answer : { done: answer ?? 0, more: false, progress: undefined };
      stats?.passDone(name, done, performance.now() - startedAt, progress);
      return more;
    } catch (err) {
      failures += 1;
      stats?.passFailed(name);
      log.warn({ err, job: name, failures }, `${name}: pass failed; retrying after a backoff`);
      throw err;
    }
  }

  async function tick() {
    if (stopped) return;
    if (running) {
      wakeAgain = true;
      return;
    }
    let next = everyMs;
    running = runPass().then(
      (more) => {
        if (more) next = 0;
        else if (wakeAgain) next = wakeDelayMs;
      },
      () => {
        next = Math.min(backoffMs * 2 ** (failures - 1), maxBackoffMs);
      },
    );
    await running;
    running = undefined;
    wakeAgain = false;
    schedule(next);
  }

  function wake() {
    // A failing loop keeps its backoff: waking it would retry at the rate of the commits.
    if (failures > 0 || stopped) return;
    if (running) wakeAgain = true;
    else if (dueAt > Date.now() + wakeDelayMs) schedule(wakeDelayMs);
  }

  const unsubscribe = options.wakeOn?.(wake);
  schedule(options.firstAfterMs ?? 0);

  return {
    name,
    wake,
    async drain() {
      for (;;) {
        while (running) await running;
        if (stopped) return;
        let more = false;
        let error: unknown;
        running = runPass().then(
          (m) => {
            more = m;
          },
          (err: unknown) => {
            error = err;
          },
        );
        await running;
        running = undefined;
        if (wakeAgain) {
          wakeAgain = false;
          schedule(0);
        }
        if (error !== undefined) throw error;
        if (!more) return;
      }
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearTimeout(timer);
        unsubscribe?.();
        await running;
        await options.onStop?.();
      })();
      return stopping;
    },
  };
}
