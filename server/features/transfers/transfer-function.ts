import { sql } from "drizzle-orm";
import { z } from "zod";
import { createTransferResponse, type TransferRequest } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import { type Database, queryRows, type Tx } from "@/server/db/client";
import { listedAddress } from "@/server/features/compliance/screen";
import { AppError, pgErrorCode } from "@/server/lib/errors";
import { type BatchStats, KeyedBatcher, type Settled } from "@/server/lib/keyed-batcher";

/** The body of a created transfer's answer, as its idempotency record keeps it. */
export interface TransferAnswer {
  message: string;
  transferRequest: TransferRequest;
}

export const TRANSFER_OUTCOMES = [
  "created",
  "replayed",
  /** The session was ended (on any instance) or went idle: the request is answered as signed out. */
  "session_ended",
  /** Another sanctions list is active than the one the name was screened against; detail: its "id:version". */
  "sanctions_list_changed",
  /** The address is on the list and the caller files no hits: nothing written; `listed` carries the entries. */
  "address_listed",
  /** The blocking monitoring rule holds it: nothing written; made again in a transaction that files the alert. */
  "alert_held",
  /** A scheduled run that sanctions or a compliance hold would hold: not made. */
  "under_review",
  /** A scheduled run's transfer exists already (its schedule_run_key); detail is its id. */
  "schedule_run_made",
  "idempotency_mismatch",
  "account_frozen",
  "account_closed",
  "staff_account",
  "setup_incomplete",
  "sends_blocked",
  "daily_count_limit",
  "lookalike_address",
  "second_factor_required",
  "insufficient_funds",
  "daily_limit",
  "personal_daily_limit",
] as const;
export type Outcome = (typeof TRANSFER_OUTCOMES)[number];

/**
 * create_transfer_request's one argument (server/db/functions/create-transfer-request.sql reads the same fields
 * with their SQL types): everything decided before the lock, checked here before it is sent as jsonb.
 */
export const createTransferCall = z.strictObject({
  user_id: z.guid(),
  /** The session cookie's hash, checked by the function (active_session_user); null only for a scheduled run. */
  session_id_hash: z.string().min(1).nullable(),
  session_idle_seconds: z.number().int().positive(),
  /** The function records the session's activity when it is older than this. */
  session_touch_seconds: z.number().int().positive(),
  idempotency_key: z.string().min(1).max(255).nullable(),
  /** sha256 of the request without its proof, for the idempotency record. */
  request_hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** The New York day the request counts on (limitDayOf). */
  limit_day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  daily_limit_cents: z.number().int().nonnegative(),
  daily_count_limit: z.number().int().nonnegative(),
  /** A passkey or one-time code was proven for this request (the function asks for one otherwise). */
  second_factor_ok: z.boolean(),
  transfer_id: z.guid(),
  transaction_id: z.guid(),
  hold_id: z.guid(),
  amount_cents: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  fee_cents: z.number().int().nonnegative(),
  recipient_name: z.string().min(1),
  recipient_account: z.string().nullable(),
  purpose: z.string(),
  category: z.string().min(1),
  crypto_address: z.string().min(1),
  /** The pending debit's description. */
  description: z.string().min(1),
  created_at: z.iso.datetime(),
  /** The 201 body, stored with the idempotency key so a replay answers it unchanged. */
  response: createTransferResponse,
  /** The body's message instead when the transfer waits under review (the function decides). */
  under_review_message: z.string().min(1),
  /** The sanctions list the payee's name was screened against in memory; null when none was active. */
  sanctions_list_id: z.guid().nullable(),
  /** The payee's name matched that list: the transfer waits under review and the caller files the hits. */
  name_listed: z.boolean(),
  /** The call runs in the caller's transaction, which files the sanctions hits (a listed address too). */
  files_hits: z.boolean(),
  /** A scheduled run: a transfer sanctions or a compliance hold would hold is refused ('under_review'). */
  refuse_review: z.boolean(),
  /** The blocking monitoring rule's settings (new_device_new_address), null when it does not block. */
  blocking_rule: z
    .strictObject({
      device_window_hours: z.number().int().positive(),
      established_days: z.number().int().nonnegative(),
      min_amount_cents: z.number().int().nonnegative(),
      cooldown_days: z.number().int().nonnegative(),
      lookback_days: z.number().int().positive(),
    })
    .nullable(),
  /** Refuse an address imitating a saved recipient's (lookalike_recipient); false once the customer confirmed it. */
  check_lookalike: z.boolean(),
  /**
   * A scheduled run's own reference ('schedule:<id>:<date>', decision 036), kept on the transfer for good: the run
   * is made once however late it is retried, after its Idempotency-Key was swept. Null for every other transfer.
   */
  schedule_run_key: z.string().min(1).max(255).nullable().optional(),
});
export type CreateTransferCall = z.input<typeof createTransferCall>;

/** The function's one row: what happened, and what the caller needs to answer it. */
const outcomeRow = z.object({
  outcome: z.enum(TRANSFER_OUTCOMES),
  status_code: z.number().int().nullable(),
  /** The created or replayed body; a replay answers what was stored, unchanged. */
  response: z.custom<TransferAnswer>().nullable(),
  /**
   * Cents for the money refusals; the saved recipient's name for lookalike_address; a transfer id for
   * schedule_run_made; the active list's "id:version" for sanctions_list_changed.
   */
  detail: z.string().nullable(),
  /** The active list's entries for the address (created under review, or address_listed); null when none. */
  listed: z.array(listedAddress).nullable(),
});
export type OutcomeRow = z.infer<typeof outcomeRow>;

/** The whole transfer request as one statement: lock, checks and writes in one round trip. */
const CREATE_TRANSFER_SQL =
  "select outcome, status_code, response, detail, listed from create_transfer_request($1::jsonb)";
const CREATE_TRANSFER_STATEMENT = "create_transfer_request";

/** A call checked against createTransferCall, as the JSON text sent. */
interface CheckedCall {
  userId: string;
  json: string;
}

function checked(call: CreateTransferCall): CheckedCall {
  const parsed = createTransferCall.parse(call);
  return { userId: parsed.user_id, json: JSON.stringify(parsed) };
}

async function runOne(deps: AppDeps, tx: Tx | null, json: string): Promise<OutcomeRow> {
  try {
    if (!tx) {
      const [row] = await deps.database.prepared(CREATE_TRANSFER_STATEMENT, CREATE_TRANSFER_SQL, [json]);
      return outcomeRow.parse(row);
    }
    const [row] = await queryRows(
      tx,
      sql`select outcome, status_code, response, detail, listed from create_transfer_request(${json}::jsonb)`,
      outcomeRow,
    );
    return row;
  } catch (err) {
    if (pgErrorCode(err) === "23514")
      throw new AppError("hold_insufficient_funds", "Insufficient funds for this hold");
    throw err;
  }
}

/** Runs the function on the pool (one autocommit round trip) or inside an open transaction. */
export async function callCreateTransfer(
  deps: AppDeps,
  tx: Tx | null,
  call: CreateTransferCall,
): Promise<OutcomeRow> {
  return runOne(deps, tx, checked(call).json);
}

/** Requests of one wallet sent together at most: a batch holds the wallet's lock for all of them. */
const MAX_BATCH = 32;
/** Several requests of one customer in one call (create_transfer_requests), one row per request, in their order. */
const CREATE_TRANSFERS_SQL =
  "select item, outcome, status_code, response, detail, listed from create_transfer_requests($1::jsonb) order by item";
const CREATE_TRANSFERS_STATEMENT = "create_transfer_requests";

async function settle(call: Promise<OutcomeRow>): Promise<Settled<OutcomeRow>> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    return { ok: false, error };
  }
}

async function runWalletBatch(deps: AppDeps, calls: CheckedCall[]): Promise<Settled<OutcomeRow>[]> {
  if (calls.length === 1) return [await settle(runOne(deps, null, calls[0]!.json))];
  let rows: OutcomeRow[];
  try {
    const argument = `[${calls.map((call) => call.json).join(",")}]`;
    rows = (await deps.database.prepared(CREATE_TRANSFERS_STATEMENT, CREATE_TRANSFERS_SQL, [argument])).map(
      (row) => outcomeRow.parse(row),
    );
  } catch (err) {
    // No SQLSTATE (a lost connection, a timeout): whether the call committed is unknown, so every request in
    // it fails as a lone one would, and the customer's retry with its Idempotency-Key finds the answer.
    if (pgErrorCode(err) === undefined) throw err;
    // PostgreSQL refused the call and rolled all of it back: each request runs alone, in order, so one that
    // cannot be written refuses only itself.
    const alone: Settled<OutcomeRow>[] = [];
    for (const call of calls) alone.push(await settle(runOne(deps, null, call.json)));
    return alone;
  }
  if (rows.length !== calls.length) {
    throw new Error(`create_transfer_requests answered ${rows.length} rows for ${calls.length} requests`);
  }
  return rows.map((value) => ({ ok: true, value }));
}

const batchers = new WeakMap<Database, KeyedBatcher<CheckedCall, OutcomeRow>>();

function walletBatcher(deps: AppDeps): KeyedBatcher<CheckedCall, OutcomeRow> {
  let batcher = batchers.get(deps.database);
  if (!batcher) {
    batcher = new KeyedBatcher((calls) => runWalletBatch(deps, calls), MAX_BATCH);
    batchers.set(deps.database, batcher);
  }
  return batcher;
}

/**
 * The autocommit call, gathered per customer: a request whose wallet has no call running goes out at once
 * and alone; the ones that arrive meanwhile would only queue on the wallet's row lock, so they go together
 * in the next call, one lock and one commit for all (decision 012). Each answers as its own call would.
 */
export async function createTransferOnWallet(deps: AppDeps, call: CreateTransferCall): Promise<OutcomeRow> {
  const checkedCall = checked(call);
  return walletBatcher(deps).run(checkedCall.userId, checkedCall);
}

/** How many wallet calls ran and carried how many requests, and how many wait (the tests read it). */
export function walletBatchStats(database: Database): BatchStats {
  return batchers.get(database)?.stats ?? { batches: 0, items: 0, largest: 0, queued: 0 };
}
