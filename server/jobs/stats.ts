import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/**
 * Seconds from an event's commit to a consumer claiming it: the jobs room's promise is p99 ≤ 2 s
 * (docs/operations.md "Jobs room").
 */
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
/** Lags kept per consumer for the p99 the bench reads (GET /metrics gives the histogram; this gives a figure). */
const LAG_SAMPLES = 4096;

interface LoopFigures {
  runs: number;
  failures: number;
  done: number;
  lastPassMs: number;
  /** A long run's position as its last pass reported it (the statement run: customers done of total). */
  progress?: { done: number; total: number };
}

interface ConsumerFigures {
  handled: number;
  failedEvents: number;
  /** Milliseconds, newest last, at most LAG_SAMPLES. */
  lags: number[];
}

/**
 * What the jobs room did, per loop and per consumer, for /metrics and the bench: passes run and failed, events
 * handled and given up, and each consumer's lag (event created → claimed). One per app.
 */
export class JobStats {
  readonly loops = new Map<string, LoopFigures>();
  readonly consumers = new Map<string, ConsumerFigures>();

  private loop(name: string): LoopFigures {
    let figures = this.loops.get(name);
    if (!figures) {
      figures = { runs: 0, failures: 0, done: 0, lastPassMs: 0 };
      this.loops.set(name, figures);
    }
    return figures;
  }

  private consumer(name: string): ConsumerFigures {
    let figures = this.consumers.get(name);
    if (!figures) {
      figures = { handled: 0, failedEvents: 0, lags: [] };
      this.consumers.set(name, figures);
    }
    return figures;
  }

  passDone(name: string, done: number, ms: number, progress?: { done: number; total: number }) {
    const figures = this.loop(name);
    figures.runs += 1;
    figures.done += done;
    figures.lastPassMs = ms;
    if (progress) figures.progress = progress;
  }

  passFailed(name: string) {
    const figures = this.loop(name);
    figures.runs += 1;
    figures.failures += 1;
  }

  /** A batch claimed: one lag per event (ms from its commit to now). */
  claimed(consumer: string, lagsMs: number[]) {
    const figures = this.consumer(consumer);
    figures.handled += lagsMs.length;
    figures.lags.push(...lagsMs);
    if (figures.lags.length > LAG_SAMPLES) figures.lags.splice(0, figures.lags.length - LAG_SAMPLES);
    for (const lag of lagsMs) this.lagHistogram?.observe({ consumer }, lag / 1000);
  }

  eventFailed(consumer: string) {
    this.consumer(consumer).failedEvents += 1;
    this.failedCounter?.inc({ consumer });
  }

  /** The p-quantile (0–1) of a consumer's kept lags, in ms; null before it claimed anything. */
  lagQuantile(consumer: string, q: number): number | null {
    const lags = this.consumers.get(consumer)?.lags;
    if (!lags || lags.length === 0) return null;
    const sorted = [...lags].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  }

  private lagHistogram?: Histogram<"consumer">;
  private failedCounter?: Counter<"consumer">;

  /** The jobs room's series on the app's /metrics registry. */
  register(registry: Registry) {
    const stats = this;
    this.lagHistogram = new Histogram({
      name: "jobs_consumer_lag_seconds",
      help: "Seconds from an event's commit to a jobs-room consumer claiming it (decision 051: p99 ≤ 2 s)",
      labelNames: ["consumer"] as const,
      buckets: LAG_BUCKETS,
      registers: [registry],
    });
    this.failedCounter = new Counter({
      name: "jobs_failed_events_total",
      help: "Events a consumer gave up on after its retries (kept in job_failures): an alert when it grows",
      labelNames: ["consumer"] as const,
      registers: [registry],
    });
    new Gauge({
      name: "jobs_consumer_lag_p99_seconds",
      help: "p99 of the last claimed events' lag (commit → claimed) per consumer, over the kept samples (the bench reads it)",
      labelNames: ["consumer"] as const,
      registers: [registry],
      collect() {
        for (const consumer of stats.consumers.keys()) {
          const p99 = stats.lagQuantile(consumer, 0.99);
          if (p99 !== null) this.set({ consumer }, p99 / 1000);
        }
      },
    });
    new Gauge({
      name: "jobs_passes_total",
      help: "Passes of each background loop since start, by outcome (ok, failed)",
      labelNames: ["job", "outcome"] as const,
      registers: [registry],
      collect() {
        for (const [job, figures] of stats.loops) {
          this.set({ job, outcome: "ok" }, figures.runs - figures.failures);
          this.set({ job, outcome: "failed" }, figures.failures);
        }
      },
    });
    new Gauge({
      name: "jobs_done_total",
      help: "What each background loop's passes did since start (events handled, mails sent, runs made)",
      labelNames: ["job"] as const,
      registers: [registry],
      collect() {
        for (const [job, figures] of stats.loops) this.set({ job }, figures.done);
      },
    });
    new Gauge({
      name: "jobs_run_progress",
      help: "A long job's position as its last pass reported it (the month-end statement run): done and total",
      labelNames: ["job", "of"] as const,
      registers: [registry],
      collect() {
        for (const [job, figures] of stats.loops) {
          if (!figures.progress) continue;
          this.set({ job, of: "done" }, figures.progress.done);
          this.set({ job, of: "total" }, figures.progress.total);
        }
      },
    });
    new Gauge({
      name: "jobs_last_pass_seconds",
      help: "How long each background loop's last successful pass took",
      labelNames: ["job"] as const,
      registers: [registry],
      collect() {
        for (const [job, figures] of stats.loops) this.set({ job }, figures.lastPassMs / 1000);
      },
    });
  }
}
