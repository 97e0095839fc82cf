import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { CLOSURE_MESSAGES } from "@/contract/closure";
import { formatMoney } from "@/contract/money";
import { type CloseSavingsResponse, SAVINGS_MESSAGES } from "@/contract/savings";
import { SECURITY_MESSAGES } from "@/contract/security";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { type Db, queryRows } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";
import { IDEMPOTENCY_KEY_PATTERN, requiredIdempotencyKey } from "@/server/lib/idempotency";
import { walletCheckRefusal } from "@/server/lib/ledger";

/**
 * Closing a customer's savings account (decision 068): one call of close_savings
 * (server/db/functions/savings.sql), which brings the interest up to date, pays it and moves the whole balance to
 * checking. This file builds the call and answers its outcome.
 */

/** close_savings's one argument: the function reads the same fields with their SQL types. */
const closeSavingsCall = z.strictObject({
  user_id: z.guid(),
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN),
  /** sha256 of what the request is, for the idempotency record. */
  request_hash: z.string().regex(/^[0-9a-f]{64}$/),
  move_id: z.guid(),
  transaction_id: z.guid(),
  created_at: z.iso.datetime(),
  message: z.string().min(1),
});

const storedClosing = z.object({
  message: z.string(),
  closing: z.object({
    accountId: z.string(),
    movedCents: z.number().int(),
    interestCents: z.number().int(),
    closedAt: z.string(),
  }),
});

const outcomeRow = z.object({
  outcome: z.enum([
    "closed",
    "replayed",
    "idempotency_mismatch",
    "account_frozen",
    "staff_account",
    "account_closed",
    "savings_not_open",
  ]),
  status_code: z.number().int().nullable(),
  response: storedClosing.nullable(),
  detail: z.string().nullable(),
});

export interface CloseSavingsResult {
  statusCode: number;
  body: CloseSavingsResponse;
  replayed: boolean;
}

/**
 * DELETE /api/savings: an Idempotency-Key is required, as for every money movement: a retried request replays
 * what the first one moved, where a second closing would only be told there is no savings account left.
 */
export async function closeSavings(
  db: Db,
  userId: string,
  idempotencyKey: string | undefined,
  now = new Date(),
): Promise<CloseSavingsResult> {
  const key = requiredIdempotencyKey(idempotencyKey);
  const call = closeSavingsCall.parse({
    user_id: userId,
    idempotency_key: key,
    request_hash: createHash("sha256")
      .update(JSON.stringify(["savings_close"]))
      .digest("hex"),
    move_id: randomUUID(),
    transaction_id: randomUUID(),
    created_at: now.toISOString(),
    message: SAVINGS_MESSAGES.closed,
  });
  let row: z.infer<typeof outcomeRow> | undefined;
  try {
    [row] = await queryRows(
      db,
      sql`select outcome, status_code, response, detail from close_savings(${JSON.stringify(call)}::jsonb)`,
      outcomeRow,
    );
  } catch (err) {
    throw walletCheckRefusal(err) ?? err;
  }
  if (!row) throw new Error("close_savings answered no row");
  switch (row.outcome) {
    case "closed":
    case "replayed": {
      const { closing, message } = row.response!;
      return {
        statusCode: row.status_code!,
        body: {
          message,
          closing: {
            ...closing,
            moved: formatMoney(closing.movedCents),
            interest: formatMoney(closing.interestCents),
          },
        },
        replayed: row.outcome === "replayed",
      };
    }
    case "idempotency_mismatch":
      throw new AppError("CONFLICT", "This Idempotency-Key was already used for a different request");
    case "account_frozen":
      throw new AppError("account_frozen", SECURITY_MESSAGES.accountFrozen);
    case "staff_account":
      throw new AppError("staff_account", TRANSFER_MESSAGES.adminCannotTransfer);
    case "account_closed":
      throw new AppError("account_closed", CLOSURE_MESSAGES.accountClosed);
    case "savings_not_open":
      throw new AppError("savings_not_open", SAVINGS_MESSAGES.notOpen);
  }
}
