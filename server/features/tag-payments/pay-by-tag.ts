import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { AUTH_SERVER_MESSAGES, HANDLE_PATTERN } from "@/contract/auth";
import { formatMoney, parseMoney } from "@/contract/money";
import { MONEY_REQUEST_STATUSES } from "@/contract/money-requests";
import { SECURITY_MESSAGES, type SecondFactorProof } from "@/contract/security";
import {
  type CreateTagPaymentInput,
  type CreateTagPaymentResponse,
  TAG_PAY_MESSAGES,
  type TagLookup,
} from "@/contract/tag-payments";
import { DAILY_LIMIT_CENTS, TRANSFER_MESSAGES } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows } from "@/server/db/client";
import {
  getSecondFactorState,
  type ProofOrigin,
  spendCodeProof,
  stepUpRequired,
} from "@/server/features/auth/second-factor";
import { countingSecondFactorFailures } from "@/server/features/auth/second-factor-lock";
import { requestClosed, requestNotFound } from "@/server/features/tag-payments/money-request-refusals";
import {
  callPayByTag,
  type PayByTagCall,
  type StoredPayment,
  type TagPaymentRow,
} from "@/server/features/tag-payments/pay-by-tag-function";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { isRefusalOutcome, moneyOutRefusal } from "@/server/features/transfers/money-out-refusal";
import { AppError } from "@/server/lib/errors";
import { requiredIdempotencyKey } from "@/server/lib/idempotency";
import type { Notification } from "@/server/lib/notifications";
import { SESSION_IDLE_SECONDS, SESSION_TOUCH_SECONDS, type SessionRef } from "@/server/lib/session";
import { sessionEnded } from "@/server/lib/session-plugin";

/**
 * Pay another customer by $tag (decision 035): an internal ledger transfer, wallet → wallet, settled
 * at once, no fee, in one call of pay_by_tag (server/db/functions/pay-by-tag.sql, decision 050). Its rules are SQL
 * functions the transfer path shares: who can be paid (tag_payee), who may send (money_out_gate: frozen, staff, the
 * send-money gate, the day's count; not the customer's own crypto-send block, which covers USDC leaving the bank)
 * and how much (money_out_limits: the available balance, the bank's daily limit and the customer's own, with these
 * payments counted by transfers_today). This file checks what needs no database, builds the call, and answers its
 * outcome; the payment shows in both histories and statements with the other party's $tag, and both parties are
 * told after the commit (server/jobs/consumers/tag-payments.ts).
 */

const unavailable = () => new AppError("tag_unavailable", TAG_PAY_MESSAGES.unavailable);

/** "$Sam_Lee" → "sam_lee"; null when it cannot be a tag at all (answered like an unknown one). */
export function normalizeTag(input: string): string | null {
  const tag = input.trim().replace(/^\$/, "").toLowerCase();
  return HANDLE_PATTERN.test(tag) ? tag : null;
}

interface Customer {
  id: string;
  isAdmin: boolean;
  pillarTag: string;
}

/**
 * Only a customer who could pay may look a tag up (decision 037's amendment): an open account, not frozen,
 * answered with the refusal paying gives. Otherwise a throwaway verified e-mail could walk $tags to names, 30
 * a minute each. A lookup moves nothing: it keeps its own two reads instead of a function's call
 * (decision 050).
 */
async function refuseLookupWithoutAccount(db: DbOrTx, payerId: string): Promise<void> {
  const [row] = await queryRows(
    db,
    sql`select frozen_at is not null as frozen, can_send_money(id) as open from users where id = ${payerId}`,
    z.object({ frozen: z.boolean(), open: z.boolean() }),
  );
  if (row?.frozen) throw new AppError("account_frozen", SECURITY_MESSAGES.accountFrozen);
  if (!row?.open) throw new AppError("setup_incomplete", TRANSFER_MESSAGES.setupIncomplete);
}

/** GET /api/transfer/tag/:tag: the masked name of the customer who can be paid there, or the one neutral 404. */
export async function lookUpTag(db: DbOrTx, payer: Customer, input: string): Promise<TagLookup> {
  if (payer.isAdmin) throw new AppError("staff_account", TRANSFER_MESSAGES.adminCannotTransfer);
  await refuseLookupWithoutAccount(db, payer.id);
  const tag = normalizeTag(input);
  if (tag === null) throw unavailable();
  if (tag === payer.pillarTag.toLowerCase()) throw new AppError("self_payment", TAG_PAY_MESSAGES.selfPayment);
  const [payee] = await queryRows(
    db,
    sql`select id, pillar_tag, mask_name(first_name, last_name) as name from tag_payee(${tag})`,
    z.object({ id: z.string(), pillar_tag: z.string(), name: z.string() }),
  );
  if (!payee || payee.id === payer.id) throw unavailable();
  return { tag: `$${payee.pillar_tag}`, name: payee.name };
}

export interface TagPaymentResult {
  statusCode: number;
  body: CreateTagPaymentResponse;
  replayed: boolean;
}

/** Who pays: the signed-in customer and their session, which the function checks again under its call. */
export interface TagPayer {
  id: string;
  session: SessionRef | null;
}

/**
 * What a payment pays: a tag, amount and note the customer typed, or a money request of theirs (decision 037),
 * paid to its requester for its amount and note. Either carries the second factor's proof when one is sent.
 */
export type TagPaymentOrder = (
  | Pick<CreateTagPaymentInput, "tag" | "amount" | "note">
  | { moneyRequestId: string }
) & { secondFactor?: SecondFactorProof | undefined };

/**
 * POST /api/transfer/tag-payments and POST /api/transfer/requests/:id/pay. An Idempotency-Key is required: the same
 * key and payment replay the first answer, the same key with another payment is a 409. A second factor, when
 * enrolled, is a one-time code in the body (spent in the payment's transaction) or this session's fresh step-up (a
 * passkey proves one through /api/auth/step-up).
 */
export function payByTag(
  deps: AppDeps,
  payer: TagPayer,
  order: TagPaymentOrder,
  idempotencyKey: string | undefined,
  now: Date = new Date(),
  origin: ProofOrigin = {},
): Promise<TagPaymentResult> {
  return countingSecondFactorFailures(deps, payer.id, () =>
    payByTagChecked(deps, payer, order, idempotencyKey, now, origin),
  );
}

/** The call's fields for what is paid, and the hash its Idempotency-Key is kept with. */
function whatIsPaid(order: TagPaymentOrder) {
  if ("moneyRequestId" in order) {
    return {
      tag: null,
      amount_cents: null,
      note: null,
      money_request_id: order.moneyRequestId,
      hashed: ["money_request", order.moneyRequestId],
    };
  }
  const amount = parseMoney(order.amount);
  if (amount === null) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountInvalid);
  if (amount <= 0) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountPositive);
  const tag = normalizeTag(order.tag);
  const note = order.note ? order.note : null;
  return {
    tag,
    amount_cents: amount,
    note,
    money_request_id: null,
    hashed: ["tag_payment", tag ?? order.tag.trim().toLowerCase(), amount, note],
  };
}

async function payByTagChecked(
  deps: AppDeps,
  payer: TagPayer,
  order: TagPaymentOrder,
  idempotencyKey: string | undefined,
  now: Date,
  origin: ProofOrigin,
): Promise<TagPaymentResult> {
  const session = payer.session;
  if (!session) throw new AppError("UNAUTHORIZED", AUTH_SERVER_MESSAGES.unauthorized);
  const key = requiredIdempotencyKey(idempotencyKey);
  const { hashed, ...paid } = whatIsPaid(order);
  const proof = order.secondFactor;
  if (proof?.method === "passkey") {
    throw new AppError(
      "VALIDATION",
      "Verify with your passkey first (Verify it's you), then send the payment",
    );
  }
  const call = (secondFactorOk: boolean): PayByTagCall => ({
    session_id_hash: session.idHash,
    session_idle_seconds: SESSION_IDLE_SECONDS,
    session_touch_seconds: SESSION_TOUCH_SECONDS,
    user_id: payer.id,
    idempotency_key: key,
    request_hash: createHash("sha256").update(JSON.stringify(hashed)).digest("hex"),
    ...paid,
    limit_day: limitDayOf(now),
    daily_limit_cents: DAILY_LIMIT_CENTS,
    daily_count_limit: deps.config.transferDailyCountLimit,
    second_factor_ok: secondFactorOk,
    payment_id: randomUUID(),
    payer_transaction_id: randomUUID(),
    payee_transaction_id: randomUUID(),
    created_at: now.toISOString(),
    message: TAG_PAY_MESSAGES.paid,
  });
  if (!proof) return answer(deps, payer.id, session, await callPayByTag(deps, null, call(false)));
  // A one-time code is spent in the transaction that makes the payment, between the checks that come before the
  // second factor and the ones after it; a refusal after it rolls the spending back.
  return deps.database.db.transaction(async (tx) => {
    const first = await callPayByTag(deps, tx, call(false));
    if (first.outcome !== "second_factor_required") return answer(deps, payer.id, session, first);
    await spendCodeProof(deps, tx, payer.id, proof, origin);
    return answer(deps, payer.id, session, await callPayByTag(deps, tx, call(true)));
  });
}

/** The answer as the customer reads it: the kept answer with its amount written out. */
function shown(stored: StoredPayment): CreateTagPaymentResponse {
  const { id, amountCents, ...rest } = stored.payment;
  return {
    message: stored.message,
    payment: { id, amount: formatMoney(amountCents), amountCents, ...rest },
  };
}

/** The function's outcome as the result or the AppError it answers. */
async function answer(
  deps: AppDeps,
  payerId: string,
  session: SessionRef,
  row: TagPaymentRow,
): Promise<TagPaymentResult> {
  switch (row.outcome) {
    case "paid":
    case "replayed":
      return {
        statusCode: row.status_code!,
        body: shown(row.response!),
        replayed: row.outcome === "replayed",
      };
    case "session_expired":
      throw sessionEnded(session);
    case "request_not_found":
      throw requestNotFound();
    case "request_closed":
      throw requestClosed(z.enum(MONEY_REQUEST_STATUSES).parse(row.detail));
    case "idempotency_mismatch":
      throw new AppError("CONFLICT", "This Idempotency-Key was already used for a different payment");
    case "tag_unavailable":
      throw unavailable();
    case "self_payment":
      throw new AppError("self_payment", TAG_PAY_MESSAGES.selfPayment);
    // Screening: a customer under a compliance case neither sends nor receives this way; the payer sees a neutral
    // answer, never the reason.
    case "compliance_hold":
      throw new AppError("compliance_hold", TAG_PAY_MESSAGES.underReview);
    case "second_factor_required":
      throw stepUpRequired((await getSecondFactorState(deps.database.db, payerId)).methods);
    default:
      if (!isRefusalOutcome(row.outcome)) throw new AppError("INTERNAL", `Unexpected outcome ${row.outcome}`);
      throw moneyOutRefusal(deps, row.outcome, row.detail);
  }
}

/** A payment as its event tells it (pay_by_tag's tag_payment.made): what its notifications say. */
export interface MadeTagPayment {
  payerId: string;
  payeeId: string;
  amountCents: number;
  payerTag: string;
  payeeTag: string;
  /** It paid the payee's money request, which tells them itself (decision 037). */
  paysRequest: boolean;
}

/** How a tag payment is announced to both parties after its commit (decision 050). */
export function tagPaymentNotifications(payment: MadeTagPayment): Notification[] {
  const amount = formatMoney(payment.amountCents);
  const payerSide: Notification = {
    userId: payment.payerId,
    kind: "transfer_status",
    content: {
      title: `Paid ${payment.payeeTag}`,
      body: `You paid ${amount} to ${payment.payeeTag}.`,
      link: "/dashboard",
    },
  };
  if (payment.paysRequest) return [payerSide];
  return [
    payerSide,
    {
      userId: payment.payeeId,
      kind: "money_in",
      content: {
        title: `Payment from ${payment.payerTag}`,
        body: `${payment.payerTag} paid you ${amount}.`,
        link: "/dashboard",
      },
    },
  ];
}
