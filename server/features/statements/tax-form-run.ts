import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import {
  TAX_FORM_MESSAGES,
  TAX_FORM_THRESHOLD_CENTS,
  type TaxFormRunStatus,
  type TaxFormRunView,
} from "@/contract/tax-forms";
import { type Db, type DbOrTx, queryRows } from "@/server/db/client";
import { parseStatementMonth } from "@/server/features/statements/statement-month";
import { STATEMENT_RUN_GRACE_MS } from "@/server/features/statements/statement-run";
import type { LoopSpec } from "@/server/jobs/loop";
import { AppError } from "@/server/lib/errors";
import type { TaxPayer } from "@/server/lib/tax-payer";

/**
 * The yearly Form 1099-INT run (decision 070): for every customer with a savings account, the interest
 * paid into savings in the calendar year (New York) is summed from the ledger, and a form is stored for each one
 * paid $10.00 or more. Run again, a customer whose amount changed gets a CORRECTED form that supersedes the last
 * one; an unchanged form is not issued again. Exactly once across instances: the run's row is locked with SKIP
 * LOCKED for a batch, forms are keyed by (user, year, sequence) with one current form per user and year, and the
 * cursor moves in the batch's transaction, so a killed run goes on from its cursor.
 */

/** Customers per batch: one transaction reads their year's interest, writes their forms and moves the cursor. */
export const TAX_FORM_RUN_BATCH = 1000;

const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/** The year's New York bounds: [1 January 00:00, next 1 January 00:00). */
export function taxYearBounds(year: number): { start: Date; end: Date } {
  return {
    start: parseStatementMonth(`${year}-01`).start,
    end: parseStatementMonth(`${year + 1}-01`).start,
  };
}

const runRow = z.object({
  id: z.string(),
  tax_year: z.number().int(),
  run_number: z.number().int(),
  status: z.enum(["running", "done"]),
  cursor: z.string().nullable(),
  total: z.number().int(),
  done: z.number().int(),
  forms_issued: z.number().int(),
  corrections: z.number().int(),
  started_at: z.coerce.date(),
  finished_at: z.coerce.date().nullable(),
});
type RunRow = z.infer<typeof runRow>;

const RUN_COLUMNS = sql.raw(
  "id::text as id, tax_year, run_number, status, cursor::text as cursor, total, done, forms_issued, corrections, started_at, finished_at",
);

const toView = (row: RunRow): TaxFormRunView => ({
  id: row.id,
  taxYear: row.tax_year,
  runNumber: row.run_number,
  status: row.status,
  total: row.total,
  done: row.done,
  formsIssued: row.forms_issued,
  corrections: row.corrections,
  startedAt: row.started_at.toISOString(),
  finishedAt: row.finished_at?.toISOString() ?? null,
});

/**
 * Why `year` may not be run yet, or null: it must be over in New York (with the statements' grace hour, so a
 * transaction begun before midnight is in), and every month of it accrued and credited (December's credit is dated
 * 31 December however late the interest job makes it: a run before it would leave it out).
 */
export async function taxYearBlockedReason(
  db: DbOrTx,
  year: number,
  now = new Date(),
): Promise<string | null> {
  const { end } = taxYearBounds(year);
  if (end.getTime() + STATEMENT_RUN_GRACE_MS > now.getTime()) return TAX_FORM_MESSAGES.yearOpen;
  const [row] = await queryRows(
    db,
    sql`select exists (select 1 from savings_interest i
            where i.month >= make_date(${year}, 1, 1) and i.month < make_date(${year + 1}, 1, 1)
              and i.credited_cents is null)
          or exists (select 1 from savings_accounts s
            where s.closed_at is null and s.opened_on <= make_date(${year}, 12, 31)
              and (s.accrued_through is null or s.accrued_through < make_date(${year}, 12, 31))) as pending`,
    z.object({ pending: z.boolean() }),
  );
  return row?.pending ? TAX_FORM_MESSAGES.interestPending : null;
}

/**
 * Starts a run of `year` unless one is working (then answers that one): refused with a 409 while the year is open
 * or its interest not all credited. Any instance may call it at once: at most one run of a year is `running`.
 */
export async function startTaxFormRun(
  db: DbOrTx,
  year: number,
  options: { now?: Date; startedBy?: string | null } = {},
): Promise<TaxFormRunView> {
  const blocked = await taxYearBlockedReason(db, year, options.now);
  if (blocked) throw new AppError("CONFLICT", blocked);
  await db.execute(sql`
    insert into tax_form_runs (tax_year, run_number, total, started_by)
    select ${year}, coalesce((select max(run_number) from tax_form_runs where tax_year = ${year}), 0) + 1,
      (select count(distinct user_id)::int from savings_accounts where opened_on <= make_date(${year}, 12, 31)),
      ${options.startedBy ?? null}::uuid
    on conflict do nothing`);
  const [run] = await queryRows(
    db,
    sql`select ${RUN_COLUMNS} from tax_form_runs where tax_year = ${year} order by run_number desc limit 1`,
    runRow,
  );
  if (!run) throw new Error(`tax_form_runs: no run of ${year} after the insert`);
  return toView(run);
}

const figureRow = z.object({
  user_id: z.string(),
  cents: z.coerce.number().int(),
  form_id: z.string().nullable(),
  form_sequence: z.number().int().nullable(),
  form_cents: z.coerce.number().int().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  street: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip_code: z.string().nullable(),
  ssn_ciphertext: z.string().nullable(),
  ssn_last4: z.string().nullable(),
});

/**
 * One batch's figures: each customer after `after` (by user id) with a savings account opened by the year's end,
 * the interest paid into their savings in the year (the ledger's interest_paid postings, dated by value: a month's
 * credit on its last New York day, a closing's at the closing), their current form and their approved identity.
 */
async function readBatch(tx: DbOrTx, year: number, after: string, size: number) {
  const { start, end } = taxYearBounds(year);
  return queryRows(
    tx,
    sql`
      with batch as (
        select s.user_id from savings_accounts s
        where s.user_id > ${after}::uuid and s.opened_on <= make_date(${year}, 12, 31)
        group by s.user_id order by s.user_id limit ${size})
      select b.user_id::text as user_id,
        coalesce((select sum(p.amount) from savings_accounts s
          join postings p on p.account_id = s.account_id
            and p.created_at >= ${start.toISOString()} and p.created_at < ${end.toISOString()}
          join journal_entries e on e.id = p.entry_id and e.kind = 'interest_paid'
          where s.user_id = b.user_id), 0)::text as cents,
        f.id::text as form_id, f.sequence as form_sequence, f.interest_cents::text as form_cents,
        coalesce(k.first_name, u.first_name) as first_name, coalesce(k.last_name, u.last_name) as last_name,
        k.street, k.city, k.state, k.zip_code, k.ssn_ciphertext, k.ssn_last4
      from batch b
      join users u on u.id = b.user_id
      left join tax_forms f on f.user_id = b.user_id and f.tax_year = ${year} and f.superseded_at is null
      left join lateral (
        select k.first_name, k.last_name, k.street, k.city, k.state, k.zip_code, k.ssn_ciphertext, k.ssn_last4
        from kyc_applications k where k.user_id = b.user_id and k.status = 'approved'
        order by k.created_at desc limit 1) k on true
      order by b.user_id`,
    figureRow,
  );
}

/**
 * One pass of the oldest running tax-form run: a batch of customers after its cursor, their forms issued or
 * corrected, the cursor and counts moved, in one transaction. A batch done twice issues nothing the second time
 * (an unchanged amount is not reissued; a form's key is user, year and sequence).
 */
export async function taxFormRunPass(
  db: Db,
  payer: TaxPayer,
  batchSize = TAX_FORM_RUN_BATCH,
): Promise<{ done: number; more: boolean; run: TaxFormRunView | null }> {
  return db.transaction(async (tx) => {
    const [run] = await queryRows(
      tx,
      sql`select ${RUN_COLUMNS} from tax_form_runs where status = 'running'
          order by tax_year, run_number limit 1 for update skip locked`,
      runRow,
    );
    if (!run) return { done: 0, more: false, run: null };
    await tx.execute(sql`set local jit = off`);
    const batch = await readBatch(tx, run.tax_year, run.cursor ?? NIL_UUID, batchSize);
    let issued = 0;
    let corrections = 0;
    for (const f of batch) {
      const isNew = f.form_id === null && f.cents >= TAX_FORM_THRESHOLD_CENTS;
      // A form once issued is corrected for any change of amount, even below $10 (a filed return must be).
      const isChanged = f.form_id !== null && f.form_cents !== f.cents;
      if (!isNew && !isChanged) continue;
      if (isChanged) {
        await tx.execute(sql`update tax_forms set superseded_at = now() where id = ${f.form_id}::uuid`);
        corrections += 1;
      } else issued += 1;
      await tx.execute(sql`
        insert into tax_forms (user_id, tax_year, sequence, run_id, interest_cents,
          payer_name, payer_tin, payer_street, payer_city, payer_state, payer_zip, payer_phone,
          recipient_name, recipient_first_name, recipient_last_name,
          recipient_street, recipient_city, recipient_state, recipient_zip,
          tin_last4, tin_ciphertext, account_number)
        values (${f.user_id}::uuid, ${run.tax_year}, ${(f.form_sequence ?? 0) + 1}, ${run.id}::uuid, ${f.cents},
          ${payer.name}, ${payer.tin}, ${payer.street}, ${payer.city}, ${payer.state}, ${payer.zip}, ${payer.phone},
          ${`${f.first_name} ${f.last_name}`}, ${f.first_name}, ${f.last_name},
          ${f.street ?? ""}, ${f.city ?? ""}, ${f.state ?? ""}, ${f.zip_code ?? ""},
          ${f.ssn_last4 ?? ""}, ${f.ssn_ciphertext ?? ""}, ${f.user_id.replaceAll("-", "").slice(0, 20).toUpperCase()})`);
    }
    const finished = batch.length < batchSize;
    const [updated] = await queryRows(
      tx,
      sql`update tax_form_runs set cursor = ${batch.at(-1)?.user_id ?? run.cursor}::uuid,
            done = done + ${batch.length}, forms_issued = forms_issued + ${issued},
            corrections = corrections + ${corrections}
            ${finished ? sql`, status = 'done', finished_at = now()` : sql``}
          where id = ${run.id}::uuid returning ${RUN_COLUMNS}`,
      runRow,
    );
    return { done: batch.length, more: !finished, run: toView(updated!) };
  });
}

/**
 * Starts `year`'s run (or joins the one working) and works passes here to its end: the CLI's `tax:1099`, tests.
 * A loop elsewhere working the same run only shares the work.
 */
export async function runTaxFormsToEnd(
  db: Db,
  payer: TaxPayer,
  year: number,
  options: { now?: Date; batchSize?: number; onBatch?: (run: TaxFormRunView) => void } = {},
): Promise<TaxFormRunView> {
  const started = await startTaxFormRun(db, year, { now: options.now });
  for (;;) {
    const { done, more, run } = await taxFormRunPass(db, payer, options.batchSize);
    if (run && done > 0) options.onBatch?.(run);
    const [mine] = await queryRows(
      db,
      sql`select ${RUN_COLUMNS} from tax_form_runs where id = ${started.id}::uuid`,
      runRow,
    );
    if (mine?.status === "done") return toView(mine);
    if (!more || run?.id !== started.id) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The year's runs (latest first), its current forms' count and total, and whether a run may start now. */
export async function getTaxFormRunStatus(
  db: DbOrTx,
  year: number,
  now = new Date(),
): Promise<TaxFormRunStatus> {
  const runs = await queryRows(
    db,
    sql`select ${RUN_COLUMNS} from tax_form_runs where tax_year = ${year} order by run_number desc`,
    runRow,
  );
  const [forms] = await queryRows(
    db,
    sql`select count(*)::int as count, count(*) filter (where sequence > 1)::int as corrected,
          coalesce(sum(interest_cents), 0)::text as cents
        from tax_forms where tax_year = ${year} and superseded_at is null`,
    z.object({ count: z.number().int(), corrected: z.number().int(), cents: z.coerce.number().int() }),
  );
  const blockedReason = await taxYearBlockedReason(db, year, now);
  return {
    taxYear: year,
    canRun: blockedReason === null,
    blockedReason,
    runs: runs.map(toView),
    forms: {
      count: forms!.count,
      corrected: forms!.corrected,
      interestCents: forms!.cents,
      interest: formatMoney(forms!.cents),
    },
  };
}

// A run started in this process wakes the loop at once; one started on another instance is seen at its poll.
const started = new EventEmitter();
export function wakeTaxFormRun(): void {
  started.emit("wake");
}

/**
 * The jobs room's tax-form loop: a batch a pass of whatever run finance or the CLI started, at once while it has
 * more, else a poll every few minutes. It never starts a run by itself: the year's run is an operations decision.
 */
export function taxFormRunLoop(
  db: Db,
  payer: TaxPayer,
  log: FastifyBaseLogger,
  everyMs = 5 * 60_000,
): LoopSpec {
  return {
    name: "tax-form-run",
    everyMs,
    wakeOn(wake) {
      started.on("wake", wake);
      return () => started.off("wake", wake);
    },
    async pass() {
      const { done, more, run } = await taxFormRunPass(db, payer);
      if (run?.status === "done")
        log.info({ job: "tax-form-run", year: run.taxYear, forms: run.formsIssued }, "tax form run finished");
      return { done, more, ...(run ? { progress: { done: run.done, total: run.total } } : {}) };
    },
  };
}
