import { EventEmitter } from "node:events";
import type { FastifyBaseLogger } from "fastify";
import type { AppDeps } from "@/server/app-deps";
import {
  type ClaimedSchedule,
  claimedSchedule,
  type RunOutcome,
  type RunStep,
  runClaimedSchedule,
} from "@/server/features/schedules/run-schedule";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import type { LoopSpec } from "@/server/jobs/loop";

export interface RunnerOptions {
  /** The runner's clock (tests move it); the New York day it reads decides which runs are due. */
  now?: () => Date;
  /** How long a claim lasts before another runner may take the schedule over; default 120 s. */
  leaseSeconds?: number;
  batchSize?: number;
  /** Called at each step of each run (the kill test dies there). */
  at?: (step: RunStep) => void;
}

export interface RunReport {
  made: number;
  skipped: number;
  /** Runs another runner had recorded first, or schedules paused or cancelled since they were claimed. */
  passed: number;
}

const DEFAULT_LEASE_SECONDS = 120;

/**
 * Claims due schedules the way the mail outbox claims mail (decision 036): one statement pushes `lease_until`
 * forward under FOR UPDATE SKIP LOCKED, so runners on many instances never take the same schedule at once and no
 * transaction stays open while a run is made; a runner that dies leaves its claim to expire.
 */
function claimDue(deps: AppDeps, today: string, batchSize: number, leaseSeconds: number) {
  return deps.database.query(
    `update transfer_schedules set lease_until = now() + make_interval(secs => $3)
      where id in (
        select id from transfer_schedules
         where status = 'active' and next_run_on <= $1::date and (lease_until is null or lease_until < now())
         order by next_run_on, id limit $2 for update skip locked)
      returning id, user_id, recipient_id, recipient_name, address, amount, purpose, cadence,
                start_on::text as start_on, end_on::text as end_on, next_run_index, next_run_on::text as next_run_on`,
    [today, batchSize, leaseSeconds],
  );
}

/**
 * Makes every run that is due at the runner's clock, each exactly once: the transfer through
 * create_transfer_request with the run's own Idempotency-Key (schedule id + date), then the run's row, unique per
 * (schedule, date), and the schedule's next date in one transaction. A schedule several runs behind (the
 * service was down) makes them one after another, in date order.
 */
export async function runDueSchedules(deps: AppDeps, options: RunnerOptions = {}): Promise<RunReport> {
  const now = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? 20;
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const report: RunReport = { made: 0, skipped: 0, passed: 0 };
  for (;;) {
    const at = now();
    const rows = (await claimDue(deps, limitDayOf(at), batchSize, leaseSeconds)) as unknown[];
    if (rows.length === 0) return report;
    const claimed: ClaimedSchedule[] = rows.map((row) => claimedSchedule.parse(row));
    // One customer's runs one after another (they share a wallet lock and a daily limit), customers side by side.
    const byUser = new Map<string, ClaimedSchedule[]>();
    for (const schedule of claimed)
      byUser.set(schedule.user_id, [...(byUser.get(schedule.user_id) ?? []), schedule]);
    const outcomes = await Promise.all(
      [...byUser.values()].map(async (schedules) => {
        const done: RunOutcome[] = [];
        for (const schedule of schedules) done.push(await runClaimedSchedule(deps, schedule, at, options.at));
        return done;
      }),
    );
    for (const run of outcomes.flat()) {
      if (run.outcome === "made") report.made++;
      else if (run.outcome === "skipped") report.skipped++;
      else report.passed++;
    }
  }
}

const wake = new EventEmitter();

/** Runs due schedules now rather than at the next poll (a schedule made for today). */
export function wakeScheduleRunner(): void {
  wake.emit("wake");
}

/** The runner in the jobs room: false to not start it (tests run passes by hand), or its poll and clock. */
export type ScheduleRunnerOption = false | { pollMs?: number; now?: () => Date };

/**
 * Every instance's runner (decision 036), as a loop of the jobs room: a pass at start, every `pollMs`, and on
 * wakeScheduleRunner(). Runners on many instances never make a run twice: claimDue's lease (SKIP LOCKED) and the
 * run's row, unique per (schedule, date).
 */
export function scheduleRunnerLoop(
  deps: AppDeps,
  log: FastifyBaseLogger,
  options: RunnerOptions & { pollMs?: number } = {},
): LoopSpec {
  return {
    name: "schedule-runner",
    everyMs: options.pollMs ?? 60_000,
    async pass() {
      const report = await runDueSchedules(deps, options);
      if (report.made + report.skipped > 0) log.info(report, "scheduled transfers run");
      return report.made + report.skipped;
    },
    wakeOn(wakeUp) {
      wake.on("wake", wakeUp);
      return () => wake.off("wake", wakeUp);
    },
  };
}
