import { sql } from "drizzle-orm";
import type { TransferRequest } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import { type Database, queryRows, type Tx } from "@/server/db/client";
import { AppError, pgErrorCode } from "@/server/lib/errors";
import { type BatchStats, KeyedBatcher, type Settled } from "@/server/lib/keyed-batcher";

/** The body of a created transfer's answer, as its idempotency record keeps it. */
export interface TransferAnswer {
  message: string;
  transferRequest: TransferRequest;
}

export type Outcome =
  | "created"
  | "replayed"
  | "idempotency_mismatch"
  | "account_frozen"
  | "staff_account"
  | "setup_incomplete"
  | "daily_count_limit"
  | "lookalike_address"
  | "second_factor_required"
  | "insufficient_funds"
  | "daily_limit";

export interface OutcomeRow {
  outcome: Outcome;
  status_code: number | null;
  response: TransferAnswer | null;
  /** Cents for the money refusals; the saved recipient's name for lookalike_address. */
  detail_cents: string | null;
}

const PARAMETER_TYPES = [
  "uuid", // user id
  "text", // idempotency key
  "text", // request hash
  "text", // limit day
  "bigint", // daily limit
  "integer", // daily count limit
  "boolean", // second factor already proven
  "uuid", // transfer id
  "uuid", // transaction id
  "uuid", // hold id
  "bigint", // amount
  "bigint", // fee
  "text", // recipient name
  "text", // recipient account
  "text", // purpose
  "text", // category
  "text", // crypto address
  "text", // description
  "timestamptz", // now
  "jsonb", // response body
  "text", // freeze token hash
  "integer", // freeze link TTL seconds
  "text", // mail to
  "text", // mail subject
  "text", // mail text
  "text", // mail html
  "text", // mail kind
  "boolean", // check for a lookalike of a saved recipient
  "text", // address, lower-cased
  "text", // first LOOKALIKE_EDGE characters of the address core
  "text", // last LOOKALIKE_EDGE characters of the address core
];
/** The whole transfer request as one statement (migration 0010): lock, checks and writes in one round trip. */
const CREATE_TRANSFER_SQL = `select outcome, status_code, response, detail_cents from create_transfer_request(${PARAMETER_TYPES.map(
  (type, i) => `$${i + 1}::${type}`,
).join(", ")})`;
const CREATE_TRANSFER_STATEMENT = "create_transfer_request";

/** Runs the function on the pool (one autocommit round trip) or inside an open transaction. */
export async function callCreateTransfer(
  deps: AppDeps,
  tx: Tx | null,
  params: unknown[],
): Promise<OutcomeRow> {
  try {
    if (!tx) {
      const [row] = await deps.database.prepared<OutcomeRow>(
        CREATE_TRANSFER_STATEMENT,
        CREATE_TRANSFER_SQL,
        params,
      );
      return row;
    }
    const bound = sql.join(
      params.map((value, i) => sql`${value}::${sql.raw(PARAMETER_TYPES[i])}`),
      sql`, `,
    );
    const [row] = await queryRows<OutcomeRow>(
      tx,
      sql`select outcome, status_code, response, detail_cents from create_transfer_request(${bound})`,
    );
    return row;
  } catch (err) {
    if (pgErrorCode(err) === "23514") throw new AppError("CONFLICT", "Insufficient funds for this hold");
    throw err;
  }
}

/** Requests of one wallet sent together at most: a batch holds the wallet's lock for all of them. */
const MAX_BATCH = 32;
/** Several requests of one customer in one call (migration 0015), one row per request, in their order. */
const CREATE_TRANSFERS_SQL =
  "select item, outcome, status_code, response, detail_cents from create_transfer_requests($1::jsonb) order by item";
const CREATE_TRANSFERS_STATEMENT = "create_transfer_requests";

async function settle(call: Promise<OutcomeRow>): Promise<Settled<OutcomeRow>> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    return { ok: false, error };
  }
}

async function runWalletBatch(deps: AppDeps, calls: unknown[][]): Promise<Settled<OutcomeRow>[]> {
  if (calls.length === 1) return [await settle(callCreateTransfer(deps, null, calls[0]))];
  let rows: OutcomeRow[];
  try {
    rows = await deps.database.prepared<OutcomeRow>(CREATE_TRANSFERS_STATEMENT, CREATE_TRANSFERS_SQL, [
      JSON.stringify(calls),
    ]);
  } catch (err) {
    // No SQLSTATE (a lost connection, a timeout): whether the call committed is unknown, so every request in
    // it fails as a lone one would, and the customer's retry with its Idempotency-Key finds the answer.
    if (pgErrorCode(err) === undefined) throw err;
    // PostgreSQL refused the call and rolled all of it back: each request runs alone, in order, so one that
    // cannot be written refuses only itself.
    const alone: Settled<OutcomeRow>[] = [];
    for (const params of calls) alone.push(await settle(callCreateTransfer(deps, null, params)));
    return alone;
  }
  if (rows.length !== calls.length) {
    throw new Error(`create_transfer_requests answered ${rows.length} rows for ${calls.length} requests`);
  }
  return rows.map((value) => ({ ok: true, value }));
}

const batchers = new WeakMap<Database, KeyedBatcher<unknown[], OutcomeRow>>();

function walletBatcher(deps: AppDeps): KeyedBatcher<unknown[], OutcomeRow> {
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
export function createTransferOnWallet(
  deps: AppDeps,
  userId: string,
  params: unknown[],
): Promise<OutcomeRow> {
  return walletBatcher(deps).run(userId, params);
}

/** How many wallet calls ran and carried how many requests, and how many wait (the tests read it). */
export function walletBatchStats(database: Database): BatchStats {
  return batchers.get(database)?.stats ?? { batches: 0, items: 0, largest: 0, queued: 0 };
}
