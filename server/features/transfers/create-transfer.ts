import { createHash, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { formatMoney, parseMoney } from "@/contract/money";
import { RECIPIENT_MESSAGES } from "@/contract/recipients";
import { SECURITY_MESSAGES } from "@/contract/security";
import { guessCategory } from "@/contract/transactions";
import {
  type CreateTransferInput,
  DAILY_LIMIT_CENTS,
  dailyCountLimitMessage,
  feeFor,
  insufficientFundsMessage,
  isUsdcAddress,
  TRANSFER_MESSAGES,
  type TransferRequest,
} from "@/contract/transfers";
import type { AppDeps } from "@/server/app";
import type { DbOrTx, Tx } from "@/server/db/client";
import { idempotencyKeys, type transferRequests } from "@/server/db/schema";
import {
  getSecondFactorState,
  hasSecondFactorSql,
  secondFactorInvalid,
  spendCodeProof,
  stepUpRequired,
  verifySecondFactor,
} from "@/server/features/auth/second-factor";
import { lookalikeRecipientSql } from "@/server/features/recipients/check-address";
import { insertFreezeLinkSql, newFreezeLink } from "@/server/features/security/freeze-links";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { canSendMoney, setupIncompleteError } from "@/server/features/transfers/send-money-gate";
import { transferBinding } from "@/server/features/transfers/transfer-binding";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";
import { AppError } from "@/server/lib/errors";
import { lockWallet, placeHoldWith } from "@/server/lib/ledger";
import { enqueueMailSql, wakeMailWorker } from "@/server/lib/mail/outbox";
import { transferRequestedMail } from "@/server/lib/mail/security-templates";

type TransferRow = typeof transferRequests.$inferSelect;

export interface CreateTransferResult {
  statusCode: number;
  body: { message: string; transferRequest: TransferRequest };
  replayed: boolean;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** What never changes the transfer made: the proof, and the customer's word that a lookalike address is right. */
const NOT_HASHED = new Set(["secondFactor", "confirmLookalikeAddress"]);

/** An answered key replays without a new proof or confirmation: neither changes the transfer. */
function requestHash(input: CreateTransferInput): string {
  const canonical = JSON.stringify(
    Object.keys(input)
      .filter((k) => !NOT_HASHED.has(k))
      .sort()
      .map((k) => [k, input[k as keyof CreateTransferInput] ?? null]),
  );
  return createHash("sha256").update(canonical).digest("hex");
}

/** Shape checks that need no database: method, amount, address. */
function validate(input: CreateTransferInput) {
  if (input.paymentMethod === "ach") throw new AppError("BAD_REQUEST", TRANSFER_MESSAGES.achUnavailable);
  const amount = parseMoney(input.amount);
  if (amount === null) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountInvalid);
  if (amount <= 0) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountPositive);
  const address = input.cryptoAddress?.trim() ?? "";
  if (!address) throw new AppError("VALIDATION", "USDC wallet address is required");
  if (!isUsdcAddress(address)) throw new AppError("VALIDATION", TRANSFER_MESSAGES.addressInvalid);
  return { amount, address };
}

interface TransferContext {
  previous: { requestHash: string; statusCode: number; response: CreateTransferResult["body"] } | null;
  canSend: boolean;
  usedToday: number;
  countToday: number;
  hasSecondFactor: boolean;
  isFrozen: boolean;
  /** The saved recipient this address imitates, if any. */
  lookalikeName: string | null;
}

/** An address imitating a saved recipient's, sent without the customer's explicit confirmation. */
export function lookalikeRefused(name: string): AppError {
  return new AppError("UNPROCESSABLE", RECIPIENT_MESSAGES.lookalikeRefused(name), {
    lookalikeAddress: true,
    lookalikeRecipientName: name,
  });
}

/**
 * Everything the checks need, in one query under the wallet lock: the idempotency record, the send-money
 * gate, today's (New York day) pending, processing and completed total that counts against the limit, and
 * how many requests were created today whatever became of them (the count cap is about creating them).
 */
async function readTransferContext(
  tx: Tx,
  userId: string,
  idempotencyKey: string | undefined,
  day: string,
  address: string,
): Promise<TransferContext> {
  const result = await tx.execute(sql`
    select ik.request_hash, ik.status_code, ik.response,
           ${canSendMoney(userId)} as can_send,
           ${hasSecondFactorSql(userId)} as has_second_factor,
           (select u.frozen_at is not null from users u where u.id = ${userId}) as is_frozen,
           (select coalesce(sum(t.amount), 0)::text from transfer_requests t
             where t.user_id = ${userId} and t.limit_day = ${day}
               and t.status in ('pending', 'processing', 'completed')) as used_today,
           (select count(*)::int from transfer_requests t
             where t.user_id = ${userId} and t.limit_day = ${day}) as count_today,
           (select l.name from ${lookalikeRecipientSql(userId, address)} as l) as lookalike_name
    from (select 1) as one
    left join idempotency_keys ik on ik.user_id = ${userId} and ik.key = ${idempotencyKey ?? null}`);
  const [row] = (
    result as unknown as {
      rows: {
        request_hash: string | null;
        status_code: number | null;
        response: CreateTransferResult["body"] | null;
        can_send: boolean;
        has_second_factor: boolean;
        is_frozen: boolean;
        used_today: string;
        count_today: number;
        lookalike_name: string | null;
      }[];
    }
  ).rows;
  return {
    previous:
      row.request_hash === null
        ? null
        : { requestHash: row.request_hash, statusCode: row.status_code!, response: row.response! },
    canSend: row.can_send,
    usedToday: Number(row.used_today),
    countToday: Number(row.count_today),
    hasSecondFactor: row.has_second_factor,
    isFrozen: row.is_frozen === true,
    lookalikeName: row.lookalike_name ?? null,
  };
}

/** Whether this key already holds an answer for this customer: its replay must never be rate limited. */
export async function isAnsweredTransferKey(
  db: DbOrTx,
  userId: string,
  idempotencyKey: string | undefined,
): Promise<boolean> {
  if (idempotencyKey === undefined || !IDEMPOTENCY_KEY.test(idempotencyKey)) return false;
  const [answered] = await db
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, idempotencyKey)));
  return answered !== undefined;
}

/** The fields a passkey signs for this transfer; shared with the options route so both compute the same. */
export function bindingFor(
  input: Pick<CreateTransferInput, "amount" | "cryptoAddress" | "recipientName">,
  idempotencyKey: string,
): string {
  const { amount, address } = validate({ ...input, paymentMethod: "crypto" } as CreateTransferInput);
  return transferBinding({
    amountCents: amount,
    feeCents: feeFor(amount),
    cryptoAddress: address,
    recipientName: input.recipientName.trim(),
    idempotencyKey,
  });
}

/**
 * A passkey proof is checked before the transaction (the passkeys feature uses its own connection) against
 * the binding recomputed from the submitted fields; an already-answered key needs no proof and is skipped.
 */
async function verifyPasskeyBeforeTransaction(
  deps: AppDeps,
  userId: string,
  input: CreateTransferInput,
  idempotencyKey: string | undefined,
): Promise<boolean> {
  const proof = input.secondFactor;
  if (proof?.method !== "passkey") return false;
  if (idempotencyKey === undefined) {
    throw new AppError("VALIDATION", SECURITY_MESSAGES.idempotencyKeyRequired, {
      idempotencyKeyRequired: true,
    });
  }
  if (await isAnsweredTransferKey(deps.database.db, userId, idempotencyKey)) return false;
  await verifySecondFactor(deps, deps.database.db, userId, proof, {
    purpose: "transfer",
    binding: bindingFor(input, idempotencyKey),
  });
  return true;
}

/**
 * When the sender has a second factor, the transfer needs its own proof: a TOTP or recovery code spent in
 * this transaction (so it is used only if the transfer is made), or a passkey already checked against it.
 */
async function checkSecondFactor(
  deps: AppDeps,
  tx: Tx,
  userId: string,
  input: CreateTransferInput,
  idempotencyKey: string | undefined,
  passkeyVerified: boolean,
): Promise<void> {
  const proof = input.secondFactor;
  if (!proof) throw stepUpRequired((await getSecondFactorState(tx, userId)).methods);
  if (idempotencyKey === undefined) {
    throw new AppError("VALIDATION", SECURITY_MESSAGES.idempotencyKeyRequired, {
      idempotencyKeyRequired: true,
    });
  }
  if (proof.method === "passkey") {
    if (!passkeyVerified) throw secondFactorInvalid("passkey");
    return;
  }
  await spendCodeProof(deps, tx, userId, proof);
}

/**
 * Creates an outgoing USDC transfer request: checks, hold and pending debit in one transaction under the
 * wallet lock. With an Idempotency-Key, a replay of the same body returns the first response unchanged.
 */
export async function createTransfer(
  deps: AppDeps,
  user: { id: string; isAdmin: boolean; email: string; firstName: string },
  input: CreateTransferInput,
  idempotencyKey: string | undefined,
  now: Date = new Date(),
): Promise<CreateTransferResult> {
  if (user.isAdmin) throw new AppError("FORBIDDEN", TRANSFER_MESSAGES.adminCannotTransfer);
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new AppError("VALIDATION", TRANSFER_MESSAGES.idempotencyKeyInvalid);
  }
  const { amount, address } = validate(input);
  const hash = requestHash(input);
  const passkeyVerified = await verifyPasskeyBeforeTransaction(deps, user.id, input, idempotencyKey);

  const result = await deps.database.db.transaction(async (tx): Promise<CreateTransferResult> => {
    // Lock the wallet first: two transfers racing must not both see the same available balance or daily total.
    const wallet = await lockWallet(tx, user.id);
    const day = limitDayOf(now);
    const { previous, canSend, usedToday, countToday, hasSecondFactor, isFrozen, lookalikeName } =
      await readTransferContext(tx, user.id, idempotencyKey, day, address);

    if (previous) {
      if (previous.requestHash !== hash)
        throw new AppError("CONFLICT", TRANSFER_MESSAGES.idempotencyMismatch);
      return { statusCode: previous.statusCode, body: previous.response, replayed: true };
    }
    if (isFrozen) {
      throw new AppError("FORBIDDEN", SECURITY_MESSAGES.accountFrozen, { accountFrozen: true });
    }
    if (!canSend) throw setupIncompleteError();
    // Checked before the second factor, so a capped customer never spends a one-time code on a refusal.
    const countLimit = deps.config.transferDailyCountLimit;
    if (countToday >= countLimit) {
      throw new AppError("UNPROCESSABLE", dailyCountLimitMessage(countLimit), {
        dailyCountLimitExceeded: true,
        dailyCountLimit: countLimit,
      });
    }
    // Also before the second factor: a refused lookalike never spends a code.
    if (lookalikeName !== null && input.confirmLookalikeAddress !== true)
      throw lookalikeRefused(lookalikeName);
    if (hasSecondFactor) await checkSecondFactor(deps, tx, user.id, input, idempotencyKey, passkeyVerified);
    const available = wallet.balance - wallet.held;
    if (amount > available) {
      throw new AppError("UNPROCESSABLE", insufficientFundsMessage(formatMoney(Math.max(available, 0))), {
        insufficientFunds: true,
        availableBalance: formatMoney(Math.max(available, 0)),
      });
    }
    if (usedToday + amount > DAILY_LIMIT_CENTS) {
      throw new AppError("UNPROCESSABLE", TRANSFER_MESSAGES.dailyLimit, {
        withdrawalLimitExceeded: true,
        remainingToday: formatMoney(Math.max(DAILY_LIMIT_CENTS - usedToday, 0)),
      });
    }

    const fee = feeFor(amount);
    const transfer: TransferRow = {
      id: randomUUID(),
      userId: user.id,
      amount,
      fee,
      netAmount: amount - fee,
      recipientName: input.recipientName,
      recipientAccount: input.recipientAccount?.trim() || null,
      recipientRouting: "CRYPTO",
      purpose: input.purpose,
      category: input.category ? input.category : guessCategory(input.purpose),
      paymentMethod: "crypto",
      cryptoAddress: address,
      status: "pending",
      adminNotes: null,
      flaggedAt: null,
      holdId: null,
      transactionId: randomUUID(),
      limitDay: day,
      reviewedAt: null,
      settledAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const body = {
      message: "Transfer request submitted successfully",
      transferRequest: toTransferRequest(transfer),
    };
    const freezeLink = newFreezeLink(deps.config);
    const mail = transferRequestedMail(user.email, {
      firstName: user.firstName,
      when: now,
      amount: formatMoney(amount),
      recipientName: input.recipientName,
      address,
      freezeUrl: freezeLink.url,
    });
    // The hold, the pending debit, the request, its idempotency record and the "Transfer requested" mail with
    // its "This wasn't me" link: one statement, so the alert costs this hot path no extra round trip.
    await placeHoldWith(tx, wallet, amount, { type: "transfer_request", id: transfer.id }, [
      sql`insert into transactions
            (id, user_id, type, amount, fee, net_amount, description, category, status, source_type, source_id, created_at)
          values (${transfer.transactionId}, ${user.id}, 'debit', ${amount}, ${fee}, ${transfer.netAmount},
                  ${`USDC transfer to ${input.recipientName}`}, ${transfer.category}, 'pending',
                  'transfer_request', ${transfer.id}, ${now})`,
      sql`insert into transfer_requests
            (id, user_id, amount, fee, net_amount, recipient_name, recipient_account, recipient_routing, purpose,
             category, payment_method, crypto_address, status, hold_id, transaction_id, limit_day, created_at, updated_at)
          values (${transfer.id}, ${user.id}, ${amount}, ${fee}, ${transfer.netAmount}, ${transfer.recipientName},
                  ${transfer.recipientAccount}, ${transfer.recipientRouting}, ${transfer.purpose}, ${transfer.category},
                  ${transfer.paymentMethod}, ${address}, 'pending', (select id from hold), ${transfer.transactionId},
                  ${day}, ${now}, ${now})`,
      ...(idempotencyKey === undefined
        ? []
        : [
            sql`insert into idempotency_keys (user_id, key, request_hash, status_code, response)
                values (${user.id}, ${idempotencyKey}, ${hash}, 201, ${JSON.stringify(body)}::jsonb)`,
          ]),
      insertFreezeLinkSql(freezeLink, user.id, "transfer"),
      enqueueMailSql(mail),
    ]);
    return { statusCode: 201, body, replayed: false };
  });
  if (!result.replayed) wakeMailWorker();
  return result;
}
