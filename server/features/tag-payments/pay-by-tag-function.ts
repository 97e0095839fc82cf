import { sql } from "drizzle-orm";
import { z } from "zod";
import { createTagPaymentResponse, tagPayment } from "@/contract/tag-payments";
import type { AppDeps } from "@/server/app-deps";
import { queryRows, type Tx } from "@/server/db/client";
import { walletCheckRefusal } from "@/server/lib/ledger";

export const TAG_PAYMENT_OUTCOMES = [
  "paid",
  "replayed",
  /** The session ended in the database (signed out on another instance, idle, expired). */
  "session_expired",
  /** Not a request of this payer's, or one withheld from them. */
  "request_not_found",
  /** The request is no longer open; detail is its status. */
  "request_closed",
  "idempotency_mismatch",
  "account_frozen",
  "account_closed",
  "staff_account",
  "setup_incomplete",
  "daily_count_limit",
  "tag_unavailable",
  "self_payment",
  "compliance_hold",
  "second_factor_required",
  "insufficient_funds",
  "daily_limit",
  "personal_daily_limit",
] as const;
export type TagPaymentOutcome = (typeof TAG_PAYMENT_OUTCOMES)[number];

/**
 * pay_by_tag's one argument (server/db/functions/pay-by-tag.sql reads the same fields with their SQL types):
 * everything decided before the call, checked here before it is sent as jsonb. A payment by tag names its tag,
 * amount and note; a money request paid names only the request (its amount, note and requester are the row's).
 */
export const payByTagCall = z
  .strictObject({
    /** The session's id hash and idle limit: the function checks the session itself (active_session_user). */
    session_id_hash: z.string().regex(/^[0-9a-f]{64}$/),
    session_idle_seconds: z.number().int().positive(),
    session_touch_seconds: z.number().int().positive(),
    user_id: z.guid(),
    idempotency_key: z.string().min(1).max(255),
    /** sha256 of what the payment is, without its proof, for the idempotency record. */
    request_hash: z.string().regex(/^[0-9a-f]{64}$/),
    /** The tag normalised (normalizeTag); null when the input cannot be a tag at all. */
    tag: z.string().min(1).nullable(),
    amount_cents: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullable(),
    note: z.string().min(1).max(140).nullable(),
    money_request_id: z.guid().nullable(),
    /** The New York day the payment counts on (limitDayOf). */
    limit_day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    daily_limit_cents: z.number().int().nonnegative(),
    daily_count_limit: z.number().int().nonnegative(),
    /** A one-time code was spent for this payment in the call's transaction (the function asks for a proof otherwise). */
    second_factor_ok: z.boolean(),
    payment_id: z.guid(),
    payer_transaction_id: z.guid(),
    payee_transaction_id: z.guid(),
    created_at: z.iso.datetime(),
    /** The answer's message. */
    message: z.string().min(1),
  })
  .refine(
    (call) =>
      call.money_request_id === null
        ? call.amount_cents !== null
        : call.amount_cents === null && call.tag === null && call.note === null,
    "A payment names its amount, or the request it pays and nothing else",
  );
export type PayByTagCall = z.input<typeof payByTagCall>;

/** The answer the function keeps for a replay: the payment as shown, its amount in cents only. */
const storedPayment = createTagPaymentResponse.extend({ payment: tagPayment.omit({ amount: true }) });
export type StoredPayment = z.infer<typeof storedPayment>;

/** The function's one row: what happened, and what the caller needs to answer it. */
const outcomeRow = z.object({
  outcome: z.enum(TAG_PAYMENT_OUTCOMES),
  status_code: z.number().int().nullable(),
  /** The made or replayed answer, as kept with the Idempotency-Key. */
  response: storedPayment.nullable(),
  /** Cents for the money refusals; the request's status for request_closed. */
  detail: z.string().nullable(),
});
export type TagPaymentRow = z.infer<typeof outcomeRow>;

/** The whole payment as one statement: session, locks, checks and writes in one round trip. */
const PAY_BY_TAG_SQL = "select outcome, status_code, response, detail from pay_by_tag($1::jsonb)";
const PAY_BY_TAG_STATEMENT = "pay_by_tag";

/**
 * Runs the function on the pool (one autocommit round trip) or inside an open transaction (a one-time code spent
 * with it). A wallet CHECK refusing the postings answers as the ledger does.
 */
export async function callPayByTag(deps: AppDeps, tx: Tx | null, call: PayByTagCall): Promise<TagPaymentRow> {
  const json = JSON.stringify(payByTagCall.parse(call));
  try {
    if (!tx) {
      const [row] = await deps.database.prepared(PAY_BY_TAG_STATEMENT, PAY_BY_TAG_SQL, [json]);
      return outcomeRow.parse(row);
    }
    const [row] = await queryRows(
      tx,
      sql`select outcome, status_code, response, detail from pay_by_tag(${json}::jsonb)`,
      outcomeRow,
    );
    return row!;
  } catch (err) {
    throw walletCheckRefusal(err) ?? err;
  }
}
