import type { FastifyBaseLogger } from "fastify";
import type { AppDeps } from "@/server/app-deps";
import { adminStatsFoldLoop } from "@/server/features/admin/admin-stats";
import { replyNotifierLoop } from "@/server/features/chat/reply-notifier";
import { identityErasureLoop } from "@/server/features/closure/erase-identities";
import { rescreenLoop } from "@/server/features/compliance/rescreen";
import { interestLoop } from "@/server/features/savings/interest";
import { rateNoticeLoop } from "@/server/features/savings/savings-rates";
import { type ScheduleRunnerOption, scheduleRunnerLoop } from "@/server/features/schedules/schedule-runner";
import { depositWatcherLoop } from "@/server/features/settlement/deposit-watcher";
import { payoutWorkerLoop } from "@/server/features/settlement/payout-worker";
import { reconciliationLoop } from "@/server/features/settlement/reconciliation";
import { treasuryWorkerLoop } from "@/server/features/settlement/treasury-worker";
import { statementRunLoop } from "@/server/features/statements/statement-run";
import { taxFormRunLoop } from "@/server/features/statements/tax-form-run";
import type { LoopSpec } from "@/server/jobs/loop";
import { housekeepingLoop } from "@/server/lib/housekeeping";
import { partitionLoop } from "@/server/lib/partitions";

export interface LoopsOptions {
  /** The mail outbox's worker (runs only with SMTP_URL): false to not start it, or its timings. */
  mailWorker?: false | { pollMs?: number; retryBaseMs?: number };
  /** The runner of scheduled transfers (decision 036): false to not start it, or its poll and clock. */
  scheduleRunner?: ScheduleRunnerOption;
  /**
   * Also run what only a serving process runs (serve.ts says true): housekeeping and, with config.chain, the
   * deposit watcher, the payout worker and reconciliation. Default false: a test that builds an app (with a
   * chain or not) runs those passes by hand, and never races a loop of its own app for them.
   */
  serving?: boolean;
}

/**
 * Every background loop of an instance, in one list (decision 051; blnk's cmd/workers.go): what runs besides
 * the event-log consumers (server/jobs/consumers.ts), and when. Each loop's pass is its feature's; the room
 * runs it.
 */
export async function loopsFor(
  deps: AppDeps,
  log: FastifyBaseLogger,
  options: LoopsOptions = {},
): Promise<LoopSpec[]> {
  const { config, database, storage } = deps;
  const loops: LoopSpec[] = [];
  if (config.smtpUrl && options.mailWorker !== false) {
    // Loaded only with SMTP_URL: nodemailer stays out of a dev-mailbox process's memory.
    const { mailWorkerLoop } = await import("@/server/lib/mail/worker");
    loops.push(
      mailWorkerLoop({
        database,
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        log: log.child({ component: "mail-worker" }),
        ...options.mailWorker,
      }),
    );
  }
  if (options.scheduleRunner !== false) {
    loops.push(
      scheduleRunnerLoop(deps, log.child({ component: "schedule-runner" }), {
        pollMs: config.schedulePollMs,
        ...options.scheduleRunner,
      }),
    );
  }
  // Unread replies turn into e-mails after 10 minutes; tests run the pass themselves when they want it.
  if (config.env !== "test") loops.push(replyNotifierLoop(database, config.publicUrl));
  if (options.serving) {
    loops.push(housekeepingLoop(database.db, storage, log));
    // Decision 063: the coming months' partitions ahead, and whole months past retention dropped.
    loops.push(partitionLoop(database.db, log.child({ component: "partitions" })));
    // Folds the admin stats' deltas (decision 061); a stats read is exact whether or not it has run.
    loops.push(adminStatsFoldLoop(database.db));
    // Erases closed accounts' identity data after the retention period (decision 059); tests run its passes.
    loops.push(
      identityErasureLoop(
        database.db,
        storage,
        config.accountRetentionYears,
        log.child({ component: "erasure" }),
      ),
    );
    // Re-screens every customer after a list load, in batches (decision 053); tests run its passes by hand.
    loops.push(
      rescreenLoop(database.db, config.sanctionsNameThreshold, log.child({ component: "rescreen" })),
    );
    // The month-end statement run, a batch of customers a pass (decision 062); tests run its passes by hand.
    loops.push(statementRunLoop(database.db, log.child({ component: "statement-run" })));
    // Savings interest: each ended New York day accrued, each month credited, exactly once (decision 068).
    loops.push(interestLoop(database.db, log.child({ component: "savings-interest" })));
    // An approved change of the savings rate told to every customer with savings, in batches (decision 071).
    loops.push(rateNoticeLoop(database.db));
    // Form 1099-INT: works a run finance or the CLI started, a batch a pass (decision 070); tests run passes by hand.
    loops.push(taxFormRunLoop(database.db, config.taxPayer, log.child({ component: "tax-form-run" })));
    if (config.chain) {
      loops.push(
        depositWatcherLoop(database.db, config.chain, log),
        payoutWorkerLoop(database.db, config.chain, log, config.sanctionsNameThreshold),
        reconciliationLoop(database.db, config.chain, log),
        // Sweeps, the surplus to cold and returns (decision 060).
        treasuryWorkerLoop(database.db, config.chain, log),
      );
    }
  }
  return loops;
}
