import { createHash } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { formatMoney, parseMoney } from "@/contract/money";
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
import type { Db, Tx } from "@/server/db/client";
import { idempotencyKeys, transactions, transferRequests } from "@/server/db/schema";
import { limitDayOf } from "@/server/features/transfers/limit-day";
import { assertCanSendMoney } from "@/server/features/transfers/send-money-gate";
import { toTransferRequest } from "@/server/features/transfers/transfer-view";
import { AppError } from "@/server/lib/errors";
import { lockWallet, placeHold } from "@/server/lib/ledger";

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

/** Sum of today's (New York day) transfers that count against the limit: pending, processing and completed. */
async function usedToday(tx: Tx, userId: string, day: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${transferRequests.amount}), 0)::text` })
    .from(transferRequests)
    .where(
      and(
        eq(transferRequests.userId, userId),
        eq(transferRequests.limitDay, day),
        inArray(transferRequests.status, ["pending", "processing", "completed"]),
      ),
    );
  return Number(row.total);
}

/**
 * Creates an outgoing USDC transfer request: checks, hold and pending debit in one transaction under the
 * wallet lock. With an Idempotency-Key, a replay of the same body returns the first response unchanged.
 */
export async function createTransfer(
  db: Db,
  user: { id: string; isAdmin: boolean },
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

  return db.transaction(async (tx) => {
    // Lock the wallet first: two transfers racing must not both see the same available balance or daily total.
    const wallet = await lockWallet(tx, user.id);

    if (idempotencyKey !== undefined) {
      const [previous] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, user.id), eq(idempotencyKeys.key, idempotencyKey)));
      if (previous) {
        if (previous.requestHash !== hash)
          throw new AppError("CONFLICT", TRANSFER_MESSAGES.idempotencyMismatch);
        return {
          statusCode: previous.statusCode,
          body: previous.response as CreateTransferResult["body"],
          replayed: true,
        };
      }
    }

    await assertCanSendMoney(tx, user.id);
    const available = wallet.balance - wallet.held;
    if (amount > available) {
      throw new AppError("UNPROCESSABLE", insufficientFundsMessage(formatMoney(Math.max(available, 0))), {
        insufficientFunds: true,
        availableBalance: formatMoney(Math.max(available, 0)),
      });
    }
    const day = limitDayOf(now);
    const used = await usedToday(tx, user.id, day);
    if (used + amount > DAILY_LIMIT_CENTS) {
      throw new AppError("UNPROCESSABLE", TRANSFER_MESSAGES.dailyLimit, {
        withdrawalLimitExceeded: true,
        remainingToday: formatMoney(Math.max(DAILY_LIMIT_CENTS - used, 0)),
      });
    }

    const fee = feeFor(amount);
    const category = input.category ? input.category : guessCategory(input.purpose);
    const [request] = await tx
      .insert(transferRequests)
      .values({
        userId: user.id,
        amount,
        fee,
        netAmount: amount - fee,
        recipientName: input.recipientName,
        recipientAccount: input.recipientAccount?.trim() || null,
        recipientRouting: "CRYPTO",
        purpose: input.purpose,
        category,
        paymentMethod: "crypto",
        cryptoAddress: address,
        limitDay: day,
        createdAt: now,
      })
      .returning();
    const holdId = await placeHold(tx, wallet, amount, { type: "transfer_request", id: request.id });
    const [debit] = await tx
      .insert(transactions)
      .values({
        userId: user.id,
        type: "debit",
        amount,
        fee,
        netAmount: amount - fee,
        description: `USDC transfer to ${input.recipientName}`,
        category,
        status: "pending",
        sourceType: "transfer_request",
        sourceId: request.id,
        createdAt: now,
      })
      .returning({ id: transactions.id });
    const [saved] = await tx
      .update(transferRequests)
      .set({ holdId, transactionId: debit.id })
      .where(eq(transferRequests.id, request.id))
      .returning();

    const body = {
      message: "Transfer request submitted successfully",
      transferRequest: toTransferRequest(saved),
    };
    if (idempotencyKey !== undefined) {
      await tx
        .insert(idempotencyKeys)
        .values({ userId: user.id, key: idempotencyKey, requestHash: hash, statusCode: 201, response: body });
    }
    return { statusCode: 201, body, replayed: false };
  });
}
