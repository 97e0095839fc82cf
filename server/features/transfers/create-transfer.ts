import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { formatMoney, parseMoney } from "@/contract/money";
import { SECURITY_MESSAGES } from "@/contract/security";
import { guessCategory } from "@/contract/transactions";
import {
  type CreateTransferInput,
  DAILY_LIMIT_CENTS,
  feeFor,
  insufficientFundsMessage,
  isUsdcAddress,
  TRANSFER_MESSAGES,
  type TransferRequest,
} from "@/contract/transfers";
import type { Config } from "@/server/config";
import type { Db, Tx } from "@/server/db/client";
import type { transferRequests } from "@/server/db/schema";
import { insertFreezeLinkSql, newFreezeLink } from "@/server/features/security/freeze-links";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { canSendMoney, setupIncompleteError } from "@/server/features/transfers/send-money-gate";
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

function requestHash(input: CreateTransferInput): string {
  const canonical = JSON.stringify(
    Object.keys(input)
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
  isFrozen: boolean;
  usedToday: number;
}

/**
 * Everything the checks need, in one query under the wallet lock: the idempotency record, the send-money
 * gate, and today's (New York day) pending, processing and completed total that counts against the limit.
 */
async function readTransferContext(
  tx: Tx,
  userId: string,
  idempotencyKey: string | undefined,
  day: string,
): Promise<TransferContext> {
  const result = await tx.execute(sql`
    select ik.request_hash, ik.status_code, ik.response,
           ${canSendMoney(userId)} as can_send,
           (select u.frozen_at is not null from users u where u.id = ${userId}) as is_frozen,
           (select coalesce(sum(t.amount), 0)::text from transfer_requests t
             where t.user_id = ${userId} and t.limit_day = ${day}
               and t.status in ('pending', 'processing', 'completed')) as used_today
    from (select 1) as one
    left join idempotency_keys ik on ik.user_id = ${userId} and ik.key = ${idempotencyKey ?? null}`);
  const [row] = (
    result as unknown as {
      rows: {
        request_hash: string | null;
        status_code: number | null;
        response: CreateTransferResult["body"] | null;
        can_send: boolean;
        is_frozen: boolean;
        used_today: string;
      }[];
    }
  ).rows;
  return {
    previous:
      row.request_hash === null
        ? null
        : { requestHash: row.request_hash, statusCode: row.status_code!, response: row.response! },
    canSend: row.can_send,
    isFrozen: row.is_frozen === true,
    usedToday: Number(row.used_today),
  };
}

/**
 * Creates an outgoing USDC transfer request: checks, hold and pending debit in one transaction under the
 * wallet lock. With an Idempotency-Key, a replay of the same body returns the first response unchanged.
 */
export async function createTransfer(
  db: Db,
  user: { id: string; isAdmin: boolean; email: string; firstName: string },
  config: Pick<Config, "publicUrl" | "host" | "port">,
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

  const result = await db.transaction(async (tx): Promise<CreateTransferResult> => {
    // Lock the wallet first: two transfers racing must not both see the same available balance or daily total.
    const wallet = await lockWallet(tx, user.id);
    const day = limitDayOf(now);
    const { previous, canSend, isFrozen, usedToday } = await readTransferContext(
      tx,
      user.id,
      idempotencyKey,
      day,
    );

    if (previous) {
      if (previous.requestHash !== hash)
        throw new AppError("CONFLICT", TRANSFER_MESSAGES.idempotencyMismatch);
      return { statusCode: previous.statusCode, body: previous.response, replayed: true };
    }
    if (isFrozen) {
      throw new AppError("FORBIDDEN", SECURITY_MESSAGES.accountFrozen, { accountFrozen: true });
    }
    if (!canSend) throw setupIncompleteError();
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
      createdAt: now,
      updatedAt: now,
    };
    const body = {
      message: "Transfer request submitted successfully",
      transferRequest: toTransferRequest(transfer),
    };
    const freezeLink = newFreezeLink(config);
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
