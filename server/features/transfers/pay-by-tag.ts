import { createHash, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { HANDLE_PATTERN } from "@/contract/auth";
import { formatMoney, parseMoney } from "@/contract/money";
import { SECURITY_MESSAGES } from "@/contract/security";
import {
  type CreateTagPaymentInput,
  type CreateTagPaymentResponse,
  TAG_PAY_MESSAGES,
  type TagLookup,
} from "@/contract/tag-payments";
import { DAILY_LIMIT_CENTS, TRANSFER_MESSAGES } from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import { type DbOrTx, queryRows, type Tx } from "@/server/db/client";
import { idempotencyKeys, tagPayments, transactions } from "@/server/db/schema";
import { type ProofOrigin, spendCodeProof, stepUpRequired } from "@/server/features/auth/second-factor";
import { countingSecondFactorFailures } from "@/server/features/auth/second-factor-lock";
import { getStepUpState } from "@/server/features/auth/step-up";
import { hasComplianceHold } from "@/server/features/compliance/screen";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { isRefusalOutcome, moneyOutRefusal } from "@/server/features/transfers/money-out-refusal";
import { AppError } from "@/server/lib/errors";
import { lockWallet, postEntry } from "@/server/lib/ledger";
import { notify } from "@/server/lib/notifications";
import type { SessionRef } from "@/server/lib/session";

/**
 * Pay another customer by $tag (issue 32 §4, decision 035): an internal ledger transfer, wallet → wallet, in one
 * transaction, settled at once, no fee. The rules are the money path's own SQL functions, run under both wallet
 * locks: who can be paid (tag_payee), who may send (money_out_gate: frozen, staff, the send-money gate, the
 * day's count; not the customer's own crypto-send block, which covers USDC leaving the bank) and how much (money_out_limits: the available balance, the bank's daily
 * limit and the customer's own, with these payments counted by transfers_today). The posting goes through the
 * ledger helpers; the payment shows in both histories and statements with the other party's $tag.
 */

const payeeRow = z.object({
  id: z.string(),
  pillar_tag: z.string(),
  first_name: z.string(),
  last_name: z.string(),
});
type Payee = z.infer<typeof payeeRow>;

const unavailable = () => new AppError("tag_unavailable", TAG_PAY_MESSAGES.unavailable);
const staffCannotPay = () => new AppError("staff_account", TRANSFER_MESSAGES.adminCannotTransfer);

/** "$Sam_Lee" → "sam_lee"; null when it cannot be a tag at all (answered like an unknown one). */
export function normalizeTag(input: string): string | null {
  const tag = input.trim().replace(/^\$/, "").toLowerCase();
  return HANDLE_PATTERN.test(tag) ? tag : null;
}

/** The payee's name as shown back before confirming: enough to recognise, not the full name ("Jo*** L."). */
export function maskName(firstName: string, lastName: string): string {
  const first = [...firstName.trim()];
  const last = [...lastName.trim()];
  const shown = first.slice(0, Math.min(2, Math.max(first.length - 1, 1))).join("");
  return `${shown}${"*".repeat(3)}${last.length > 0 ? ` ${last[0]!.toUpperCase()}.` : ""}`;
}

async function findPayee(db: DbOrTx, tag: string): Promise<Payee | null> {
  const [row] = await queryRows(
    db,
    sql`select id, pillar_tag, first_name, last_name from tag_payee(${tag})`,
    payeeRow,
  );
  return row ?? null;
}

interface Payer {
  id: string;
  isAdmin: boolean;
  pillarTag: string;
}

/**
 * Only a customer who could pay may look a tag up (issue 46 §31): an open account, not frozen, answered with the
 * refusal paying gives. Otherwise a throwaway verified e-mail could walk $tags to names, 30 a minute each.
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
export async function lookUpTag(db: DbOrTx, payer: Payer, input: string): Promise<TagLookup> {
  if (payer.isAdmin) throw staffCannotPay();
  await refuseLookupWithoutAccount(db, payer.id);
  const tag = normalizeTag(input);
  if (tag === null) throw unavailable();
  if (tag === payer.pillarTag.toLowerCase()) throw new AppError("self_payment", TAG_PAY_MESSAGES.selfPayment);
  const payee = await findPayee(db, tag);
  if (!payee || payee.id === payer.id) throw unavailable();
  return { tag: `$${payee.pillar_tag}`, name: maskName(payee.first_name, payee.last_name) };
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export interface TagPaymentResult {
  statusCode: number;
  body: CreateTagPaymentResponse;
  replayed: boolean;
}

const gateRow = z.object({ outcome: z.string(), detail: z.string().nullable() });

/** The money-out functions' refusal row, if any, as the AppError it answers. */
async function refusalOf(deps: AppDeps, tx: Tx, query: ReturnType<typeof sql>): Promise<AppError | null> {
  const [row] = await queryRows(tx, query, gateRow);
  if (!row) return null;
  if (!isRefusalOutcome(row.outcome)) return new AppError("INTERNAL", `Unexpected outcome ${row.outcome}`);
  return moneyOutRefusal(deps, row.outcome, row.detail);
}

/**
 * The one place a tag payment is announced to the parties (issue 32 §4 "both sides notified"). Called in the
 * payment's transaction, after it is written; the notification centre wires its rows here.
 */
export async function notifyTagPayment(
  tx: Tx,
  payment: {
    id: string;
    payerId: string;
    payeeId: string;
    amountCents: number;
    payerTag: string;
    payeeTag: string;
    /** It paid the payee's money request, which told them itself (decision 037). */
    paysRequest: boolean;
  },
): Promise<void> {
  const amount = formatMoney(payment.amountCents);
  await notify(tx, payment.payerId, "transfer_status", {
    title: `Paid ${payment.payeeTag}`,
    body: `You paid ${amount} to ${payment.payeeTag}.`,
    link: "/dashboard",
  });
  if (payment.paysRequest) return;
  await notify(tx, payment.payeeId, "money_in", {
    title: `Payment from ${payment.payerTag}`,
    body: `${payment.payerTag} paid you ${amount}.`,
    link: "/dashboard",
  });
}

/**
 * POST /api/transfer/tag-payments. An Idempotency-Key is required: the same key and body replay the first answer,
 * the same key with another body is a 409. A second factor, when enrolled, is a one-time code in the body (spent in
 * this transaction) or this session's fresh step-up (a passkey proves one through /api/auth/step-up).
 */
export function payByTag(
  deps: AppDeps,
  payer: Payer & { session: SessionRef | null },
  input: CreateTagPaymentInput,
  idempotencyKey: string | undefined,
  now: Date = new Date(),
  origin: ProofOrigin = {},
  forRequest?: RequestToPay,
): Promise<TagPaymentResult> {
  return countingSecondFactorFailures(deps, payer.id, () =>
    payByTagChecked(deps, payer, input, idempotencyKey, now, origin, forRequest),
  );
}

/**
 * A money request the payment answers (decision 037): its row is locked after both wallets and must still be open
 * and addressed to this payer; the payment then marks it paid in the same transaction, so it is paid once.
 */
export interface RequestToPay {
  id: string;
  /** Answers the refusal for a request that is not this payer's (404) or no longer open (409). */
  check: (tx: Tx, payerId: string, payeeId: string | null) => Promise<void>;
  /** Marks it paid by this payment. */
  markPaid: (tx: Tx, paymentId: string, now: Date) => Promise<void>;
}

async function payByTagChecked(
  deps: AppDeps,
  payer: Payer & { session: SessionRef | null },
  input: CreateTagPaymentInput,
  idempotencyKey: string | undefined,
  now: Date,
  origin: ProofOrigin,
  forRequest: RequestToPay | undefined,
): Promise<TagPaymentResult> {
  if (payer.isAdmin) throw staffCannotPay();
  if (idempotencyKey === undefined) {
    throw new AppError("idempotency_key_required", SECURITY_MESSAGES.idempotencyKeyRequired);
  }
  if (!IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new AppError("VALIDATION", TRANSFER_MESSAGES.idempotencyKeyInvalid);
  }
  const amount = parseMoney(input.amount);
  if (amount === null) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountInvalid);
  if (amount <= 0) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountPositive);
  const tag = normalizeTag(input.tag);
  const note = input.note ? input.note : null;
  const hash = createHash("sha256")
    .update(
      JSON.stringify(
        forRequest
          ? ["money_request", forRequest.id]
          : ["tag_payment", tag ?? input.tag.trim().toLowerCase(), amount, note],
      ),
    )
    .digest("hex");
  const proof = input.secondFactor;
  if (proof?.method === "passkey") {
    throw new AppError(
      "VALIDATION",
      "Verify with your passkey first (Verify it's you), then send the payment",
    );
  }
  const day = limitDayOf(now);

  return deps.database.db.transaction(async (tx) => {
    // Which wallets to lock: the payee as the tag names them now, checked again under the locks.
    const seen = tag === null ? null : await findPayee(tx, tag);
    const parties = [payer.id, ...(seen && seen.id !== payer.id ? [seen.id] : [])].sort();
    const wallets = new Map<string, string>();
    for (const userId of parties) wallets.set(userId, (await lockWallet(tx, userId)).id);

    const [previous] = await tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, payer.id), eq(idempotencyKeys.key, idempotencyKey)));
    if (previous) {
      if (previous.requestHash !== hash) {
        throw new AppError("CONFLICT", "This Idempotency-Key was already used for a different payment");
      }
      return {
        statusCode: previous.statusCode,
        body: previous.response as CreateTagPaymentResponse,
        replayed: true,
      };
    }
    // A request is checked before anything else: a paid one answers "already paid", whatever else changed.
    if (forRequest) await forRequest.check(tx, payer.id, seen?.id ?? null);

    // Inside the bank: the customer's "Block crypto sends" does not apply (p_leaves_bank false), their own
    // daily limit does (money_out_limits below).
    const gate = await refusalOf(
      deps,
      tx,
      sql`select outcome, detail from money_out_gate(${payer.id}::uuid, ${day}, ${deps.config.transferDailyCountLimit}::int, ${now.toISOString()}::timestamptz, false)`,
    );
    if (gate) throw gate;
    if (tag === null) throw unavailable();
    if (tag === payer.pillarTag.toLowerCase())
      throw new AppError("self_payment", TAG_PAY_MESSAGES.selfPayment);
    const payee = await findPayee(tx, tag);
    if (!payee || !seen || payee.id !== seen.id || payee.id === payer.id) throw unavailable();
    // Screening: a customer under a compliance case neither sends nor receives this way; the payer sees a
    // neutral answer, never the reason.
    if ((await hasComplianceHold(tx, payer.id)) || (await hasComplianceHold(tx, payee.id))) {
      throw new AppError("compliance_hold", TAG_PAY_MESSAGES.underReview);
    }

    const state = await getStepUpState(tx, payer.id, payer.session ?? { idHash: "", publicId: "" });
    if (state.enabled) {
      if (proof) await spendCodeProof(deps, tx, payer.id, proof, origin);
      else if (!state.fresh) throw stepUpRequired(state.methods);
    }

    const limits = await refusalOf(
      deps,
      tx,
      sql`select outcome, detail from money_out_limits(${payer.id}::uuid, ${day}, ${amount}::bigint, ${DAILY_LIMIT_CENTS}::bigint, ${now.toISOString()}::timestamptz)`,
    );
    if (limits) throw limits;

    const paymentId = randomUUID();
    const payerTag = `$${payer.pillarTag}`;
    const payeeTag = `$${payee.pillar_tag}`;
    const entryId = await postEntry(tx, {
      kind: "tag_payment",
      description: `Payment from ${payerTag} to ${payeeTag}`,
      referenceType: "tag_payment",
      referenceId: paymentId,
      actorId: payer.id,
      postings: [
        { accountId: wallets.get(payer.id)!, amount: -amount },
        { accountId: wallets.get(payee.id)!, amount },
      ],
    });
    const payerTransactionId = randomUUID();
    const payeeTransactionId = randomUUID();
    const common = {
      amount,
      fee: 0,
      netAmount: amount,
      category: "other",
      status: "completed" as const,
      sourceType: "tag_payment" as const,
      sourceId: paymentId,
      entryId,
      createdAt: now,
      updatedAt: now,
    };
    const withNote = (text: string) => (note ? `${text}: ${note}` : text);
    await tx.insert(transactions).values([
      {
        ...common,
        id: payerTransactionId,
        userId: payer.id,
        type: "debit",
        description: withNote(`Payment to ${payeeTag}`),
      },
      {
        ...common,
        id: payeeTransactionId,
        userId: payee.id,
        type: "credit",
        description: withNote(`Payment from ${payerTag}`),
      },
    ]);
    await tx.insert(tagPayments).values({
      id: paymentId,
      payerId: payer.id,
      payeeId: payee.id,
      payerTag,
      payeeTag,
      amount,
      note,
      limitDay: day,
      entryId,
      payerTransactionId,
      payeeTransactionId,
      createdAt: now,
    });
    if (forRequest) await forRequest.markPaid(tx, paymentId, now);
    const body: CreateTagPaymentResponse = {
      message: TAG_PAY_MESSAGES.paid,
      payment: {
        id: paymentId,
        amount: formatMoney(amount),
        amountCents: amount,
        toTag: payeeTag,
        toName: maskName(payee.first_name, payee.last_name),
        note,
        createdAt: now.toISOString(),
      },
    };
    await tx
      .insert(idempotencyKeys)
      .values({ userId: payer.id, key: idempotencyKey, requestHash: hash, statusCode: 201, response: body });
    await notifyTagPayment(tx, {
      id: paymentId,
      payerId: payer.id,
      payeeId: payee.id,
      amountCents: amount,
      payerTag,
      payeeTag,
      paysRequest: forRequest !== undefined,
    });
    return { statusCode: 201, body, replayed: false };
  });
}
