import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { type Db, type DbOrTx, queryRows } from "@/server/db/client";
import { savingsStatements, statementRuns, statements } from "@/server/db/schema";
import {
  computeSavingsFigures,
  createSavingsStatementDigest,
  type SavingsFigures,
  type SavingsStatementSummary,
  toSavingsSummary,
} from "@/server/features/statements/savings-statement-data";
import {
  digestHeader,
  formatDigest,
  type StatementSummary,
} from "@/server/features/statements/statement-data";
import {
  monthOf,
  parseStatementMonth,
  type StatementPeriod,
} from "@/server/features/statements/statement-month";
import type { LoopSpec } from "@/server/jobs/loop";

/** Customers per batch: one transaction reads their month, writes their statements and moves the cursor. */
export const STATEMENT_RUN_BATCH = 1000;

/**
 * How long after a month's end its run may start: a transaction that began before midnight (its postings dated
 * then) and commits after it must be in the figures, and a closed month's postings never change after.
 */
export const STATEMENT_RUN_GRACE_MS = 60 * 60_000;

export interface StatementRunView {
  month: string;
  status: "running" | "done";
  /** Checking statements first, then savings statements (decision 069). */
  phase: "checking" | "savings";
  total: number;
  done: number;
  savingsTotal: number;
  savingsDone: number;
  startedAt: string;
  finishedAt: string | null;
}

const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/** A month is closed once its grace has passed: only a closed month gets stored statements. */
export function isClosedMonth(period: StatementPeriod, now = new Date()): boolean {
  return period.end.getTime() + STATEMENT_RUN_GRACE_MS <= now.getTime();
}

/** The month before the one `now` falls in (New York), "2026-10" on any day of November. */
export function previousMonth(now = new Date()): string {
  const [year, month] = monthOf(now).split("-").map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, "0")}`;
}

/** Queues `month`'s run unless it has one; counts the wallets opened before it ended (its progress's total). */
export async function queueStatementRun(db: DbOrTx, month: string, now = new Date()): Promise<void> {
  const period = parseStatementMonth(month);
  if (!isClosedMonth(period, now))
    throw new Error(`${month} is not closed yet: its statements could still change`);
  // Checked first: the count below reads every wallet, once a month rather than once a poll.
  if (await findStatementRun(db, month)) return;
  await db.execute(sql`
    insert into statement_runs (month, total, savings_total)
    select ${month}, count(*)::int,
      (select count(*)::int from savings_accounts s where s.opened_at < ${period.end.toISOString()}
        and (s.closed_at is null or s.closed_at >= ${period.start.toISOString()}))
    from ledger_accounts
    where kind = 'wallet' and user_id is not null and created_at < ${period.end.toISOString()}
    on conflict (month) do nothing`);
}

const figuresRow = z.object({
  user_id: z.string(),
  wallet_id: z.string(),
  opening: z.string(),
  money_in: z.string(),
  money_out: z.string(),
  count: z.number(),
  fees: z.string(),
});

// A posting line of a digest; ids and amounts are bigints, read as text.
const postingLine = z.object({ account_id: z.string(), id: z.string(), amount: z.string() });

/**
 * One batch's statements, computed set-based exactly as getStatementSummary and computeStatementDigest compute
 * one (the same postings, filters and fee join; the same digest recipe), for the wallets after `after` by user id.
 */
async function computeBatch(tx: DbOrTx, period: StatementPeriod, after: string, size: number) {
  const start = period.start.toISOString();
  const end = period.end.toISOString();
  const figures = await queryRows(
    tx,
    sql`
      with batch as (
        select a.id as wallet_id, a.user_id from ledger_accounts a
        where a.kind = 'wallet' and a.user_id > ${after}::uuid and a.created_at < ${end}
        order by a.user_id limit ${size})
      select b.user_id::text as user_id, b.wallet_id::text as wallet_id,
        coalesce(s.opening, 0)::text as opening, coalesce(s.money_in, 0)::text as money_in,
        coalesce(s.money_out, 0)::text as money_out, coalesce(s.count, 0)::int as count,
        coalesce(f.fees, 0)::text as fees
      from batch b
      left join lateral (
        select sum(p.amount) filter (where p.created_at < ${start}) as opening,
               sum(p.amount) filter (where p.created_at >= ${start} and p.amount > 0) as money_in,
               sum(p.amount) filter (where p.created_at >= ${start} and p.amount < 0) as money_out,
               count(*) filter (where p.created_at >= ${start}) as count
        from postings p where p.account_id = b.wallet_id and p.created_at < ${end}) s on true
      left join lateral (
        select sum(t.fee) as fees from postings p
        join transactions t on t.entry_id = p.entry_id and t.user_id = b.user_id
        where p.account_id = b.wallet_id and p.created_at >= ${start} and p.created_at < ${end}) f on true
      order by b.user_id`,
    figuresRow,
  );
  if (figures.length === 0) return [];
  const lines = await queryRows(
    tx,
    sql`select p.account_id::text as account_id, p.id::text as id, p.amount::text as amount from postings p
        where p.account_id = any(${`{${figures.map((f) => f.wallet_id).join(",")}}`}::uuid[])
          and p.created_at >= ${start} and p.created_at < ${end}
        order by p.account_id, p.id`,
    postingLine,
  );
  const linesOf = new Map<string, { id: string; amount: string }[]>();
  for (const line of lines) {
    const list = linesOf.get(line.account_id) ?? [];
    list.push(line);
    linesOf.set(line.account_id, list);
  }
  return figures.map((f) => {
    const summary: StatementSummary = {
      opening: Number(f.opening),
      moneyIn: Number(f.money_in),
      moneyOut: Number(f.money_out),
      fees: Number(f.fees),
      closing: Number(f.opening) + Number(f.money_in) + Number(f.money_out),
      count: f.count,
    };
    const hash = createHash("sha256").update(
      digestHeader({ walletId: f.wallet_id }, period, summary.opening),
    );
    // Posting ids ascending, as the statement streams them (bigint ids compared as numbers, not as text).
    const own = (linesOf.get(f.wallet_id) ?? []).sort((a, b) => Number(a.id) - Number(b.id));
    for (const line of own) hash.update(`${line.id}:${line.amount}\n`);
    return { userId: f.user_id, walletId: f.wallet_id, summary, digest: formatDigest(hash.digest("hex")) };
  });
}

/**
 * One pass of the statement run: the oldest unfinished run (locked, so one instance works it at a time), one
 * batch of customers after its cursor computed and stored, and the cursor moved, all in one transaction. A kill
 * -9 loses at most the batch in flight, which the next pass does again; a statement is keyed by user and month,
 * so a batch done twice writes nothing the second time. Once every checking statement is stored the run goes on
 * with the month's savings accounts (savingsBatch); a run still in its checking phase goes first, whatever its month.
 * `waiting`: the savings phase stopped at an account whose month's interest is not credited yet.
 */
export async function statementRunPass(
  db: Db,
  batchSize = STATEMENT_RUN_BATCH,
): Promise<{ done: number; more: boolean; waiting: boolean; run: StatementRunView | null }> {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(statementRuns)
      .where(eq(statementRuns.status, "running"))
      .orderBy(sql`${statementRuns.checkingDoneAt} is not null`, statementRuns.month)
      .limit(1)
      .for("update", { skipLocked: true });
    if (!run) return { done: 0, more: false, waiting: false, run: null };
    // A batch's estimated cost turns PostgreSQL's JIT on, which cost 2 s a batch for a 0.8 s read (decision 062).
    await tx.execute(sql`set local jit = off`);
    const period = parseStatementMonth(run.month);
    if (run.checkingDoneAt) return savingsBatch(tx, run, period, batchSize);
    const batch = await computeBatch(tx, period, run.cursor ?? NIL_UUID, batchSize);
    if (batch.length > 0) {
      await tx
        .insert(statements)
        .values(
          batch.map((s) => ({
            userId: s.userId,
            month: run.month,
            walletId: s.walletId,
            opening: s.summary.opening,
            moneyIn: s.summary.moneyIn,
            moneyOut: s.summary.moneyOut,
            fees: s.summary.fees,
            closing: s.summary.closing,
            count: s.summary.count,
            digest: s.digest,
          })),
        )
        .onConflictDoNothing();
    }
    const finished = batch.length < batchSize;
    const [updated] = await tx
      .update(statementRuns)
      .set({
        cursor: batch.at(-1)?.userId ?? run.cursor,
        done: sql`${statementRuns.done} + ${batch.length}`,
        ...(finished ? { checkingDoneAt: sql`now()` } : {}),
      })
      .where(eq(statementRuns.month, run.month))
      .returning();
    // The savings phase comes next: more either way.
    return { done: batch.length, more: true, waiting: false, run: toView(updated!) };
  });
}

/**
 * One batch of the month's savings statements: the savings accounts open in the month after the savings cursor, by
 * id, stored up to the first whose month is not ready (its interest not credited, the account not closed in it).
 * The cursor never passes an account not ready, so no savings statement is stored before its month's interest is
 * final, and the run waits there (a later pass, after the credit, goes on); when none is left the run is done.
 */
async function savingsBatch(
  tx: DbOrTx,
  run: typeof statementRuns.$inferSelect,
  period: StatementPeriod,
  batchSize: number,
) {
  const figures = await computeSavingsFigures(
    tx,
    period,
    sql`select s.account_id, s.user_id, s.opened_on, s.closed_at from savings_accounts s
        where s.account_id > ${run.savingsCursor ?? NIL_UUID}::uuid and s.opened_at < ${period.end.toISOString()}
          and (s.closed_at is null or s.closed_at >= ${period.start.toISOString()})
        order by s.account_id limit ${batchSize}`,
  );
  const notReady = figures.findIndex((f) => !f.ready);
  const ready = notReady === -1 ? figures : figures.slice(0, notReady);
  const digests = await savingsDigests(tx, period, ready);
  if (ready.length > 0) {
    await tx
      .insert(savingsStatements)
      .values(
        ready.map((f) => {
          const summary = toSavingsSummary(f);
          return {
            accountId: f.account_id,
            month: run.month,
            userId: f.user_id,
            opening: summary.opening,
            deposits: summary.deposits,
            withdrawals: summary.withdrawals,
            interest: summary.interest,
            closing: summary.closing,
            count: summary.count,
            days: summary.days,
            balanceDays: summary.balanceDays,
            apyEarned: summary.apyEarned,
            digest: digests.get(f.account_id)!,
          };
        }),
      )
      .onConflictDoNothing();
  }
  const waiting = notReady !== -1;
  const finished = !waiting && figures.length < batchSize;
  const [updated] = await tx
    .update(statementRuns)
    .set({
      savingsCursor: ready.at(-1)?.account_id ?? run.savingsCursor,
      savingsDone: sql`${statementRuns.savingsDone} + ${ready.length}`,
      ...(finished ? { status: "done" as const, finishedAt: sql`now()` } : {}),
    })
    .where(eq(statementRuns.month, run.month))
    .returning();
  return { done: ready.length, more: !finished && !waiting, waiting, run: toView(updated!) };
}

/** Each ready account's digest, from one read of the batch's postings in the month (ids ascending, as printed). */
async function savingsDigests(tx: DbOrTx, period: StatementPeriod, ready: SavingsFigures[]) {
  const digests = new Map<string, string>();
  if (ready.length === 0) return digests;
  const lines = await queryRows(
    tx,
    sql`select p.account_id::text as account_id, p.id::text as id, p.amount::text as amount from postings p
        where p.account_id = any(${`{${ready.map((f) => f.account_id).join(",")}}`}::uuid[])
          and p.created_at >= ${period.start.toISOString()} and p.created_at < ${period.end.toISOString()}
        order by p.account_id, p.id`,
    postingLine,
  );
  for (const f of ready) {
    const digest = createSavingsStatementDigest(f.account_id, period, f.opening);
    digest.add(
      lines
        .filter((line) => line.account_id === f.account_id)
        .map((line) => ({ postingId: Number(line.id), amount: Number(line.amount) }))
        .sort((a, b) => a.postingId - b.postingId),
    );
    digests.set(f.account_id, digest.finish());
  }
  return digests;
}

const toView = (row: typeof statementRuns.$inferSelect): StatementRunView => ({
  month: row.month,
  status: row.status,
  phase: row.checkingDoneAt ? "savings" : "checking",
  total: row.total,
  done: row.done,
  savingsTotal: row.savingsTotal,
  savingsDone: row.savingsDone,
  startedAt: row.startedAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
});

export async function findStatementRun(db: DbOrTx, month: string): Promise<StatementRunView | null> {
  const [row] = await db.select().from(statementRuns).where(eq(statementRuns.month, month));
  return row ? toView(row) : null;
}

/**
 * Queues `month`'s run if needed and works its passes here to the end (the CLI, tests, the bench): the passes the
 * jobs room runs, so a loop elsewhere working the same run only shares the work. A run whose savings phase waits
 * for a month's interest credit is answered as it stands (status "running", phase "savings"): the interest job,
 * not this one, makes the credit, and the jobs room's run goes on after it.
 */
export async function runStatementsToEnd(
  db: Db,
  month: string,
  options: { batchSize?: number; now?: Date; onBatch?: (run: StatementRunView) => void } = {},
): Promise<StatementRunView> {
  await queueStatementRun(db, month, options.now);
  for (;;) {
    const { done, more, waiting, run } = await statementRunPass(db, options.batchSize);
    if (run && done > 0) options.onBatch?.(run);
    const mine = await findStatementRun(db, month);
    // Waiting for a credit (this month's, or an older month's savings phase that goes first): nothing to do here.
    if (mine?.status === "done" || (waiting && mine?.phase === "savings")) return mine!;
    // An older month's run goes first, or another process holds the run's lock: wait rather than spin.
    if (!more || run?.month !== month) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The stored figures of a closed month's statement, or null (not run yet, or a month still open). */
export async function findStoredStatement(
  db: DbOrTx,
  userId: string,
  month: string,
): Promise<(StatementSummary & { digest: string }) | null> {
  const [row] = await db
    .select({
      opening: statements.opening,
      moneyIn: statements.moneyIn,
      moneyOut: statements.moneyOut,
      fees: statements.fees,
      closing: statements.closing,
      count: statements.count,
      digest: statements.digest,
    })
    .from(statements)
    .where(and(eq(statements.userId, userId), eq(statements.month, month)));
  return row ?? null;
}

/** The stored figures of a savings account's statement for a month, or null (not run yet, or not ready). */
export async function findStoredSavingsStatement(
  db: DbOrTx,
  accountId: string,
  month: string,
): Promise<(SavingsStatementSummary & { digest: string }) | null> {
  const [row] = await db
    .select({
      opening: savingsStatements.opening,
      deposits: savingsStatements.deposits,
      withdrawals: savingsStatements.withdrawals,
      interest: savingsStatements.interest,
      closing: savingsStatements.closing,
      count: savingsStatements.count,
      days: savingsStatements.days,
      balanceDays: savingsStatements.balanceDays,
      apyEarned: savingsStatements.apyEarned,
      digest: savingsStatements.digest,
    })
    .from(savingsStatements)
    .where(and(eq(savingsStatements.accountId, accountId), eq(savingsStatements.month, month)));
  return row ?? null;
}

/**
 * The month-end run in the jobs room (loops.ts): queues the previous month once it is closed (any instance may;
 * the insert is idempotent), then a batch a pass, at once while the run has more, else an hourly poll. Each pass
 * reports the run's done/total (the jobs_run_progress gauge on /metrics).
 */
export function statementRunLoop(db: Db, log: FastifyBaseLogger, everyMs = 60 * 60_000): LoopSpec {
  return {
    name: "statement-run",
    everyMs,
    async pass() {
      const month = previousMonth();
      if (isClosedMonth(parseStatementMonth(month))) await queueStatementRun(db, month);
      const { done, more, waiting, run } = await statementRunPass(db);
      if (run?.status === "done")
        log.info(
          { job: "statement-run", month: run.month, done: run.done, savingsDone: run.savingsDone },
          "statement run finished",
        );
      // Waiting for the month's interest credit: the next hourly pass looks again.
      if (waiting)
        log.info({ job: "statement-run", month: run?.month }, "savings statements wait for interest");
      const progress = run && { done: run.done + run.savingsDone, total: run.total + run.savingsTotal };
      return { done, more, ...(progress ? { progress } : {}) };
    },
  };
}
