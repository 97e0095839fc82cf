import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { CLOSURE_MESSAGES } from "@/contract/closure";
import { formatMoney, MAX_CENTS, parseMoney } from "@/contract/money";
import {
  type MoveSavingsInput,
  type MoveSavingsResponse,
  SAVINGS_DIRECTIONS,
  SAVINGS_MESSAGES,
} from "@/contract/savings";
import { SECURITY_MESSAGES } from "@/contract/security";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { type Db, queryRows } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";
import { IDEMPOTENCY_KEY_PATTERN, requiredIdempotencyKey } from "@/server/lib/idempotency";
import { walletCheckRefusal } from "@/server/lib/ledger";

/**
 * Moving money between a customer's checking and savings (decision 068): one call of move_savings
 * (server/db/functions/savings.sql), which locks, checks and writes. This file checks what needs no database,
 * builds the call and answers its outcome.
 */

/** move_savings's one argument: the function reads the same fields with their SQL types. */
const moveSavingsCall = z.strictObject({
  user_id: z.guid(),
  idempotency_key: z.string().regex(IDEMPOTENCY_KEY_PATTERN),
  /** sha256 of what the move is, for the idempotency record. */
  request_hash: z.string().regex(/^[0-9a-f]{64}$/),
  direction: z.enum(SAVINGS_DIRECTIONS),
  amount_cents: z.number().int().positive().max(MAX_CENTS),
  goal_id: z.guid().nullable(),
  move_id: z.guid(),
  transaction_id: z.guid(),
  created_at: z.iso.datetime(),
  message: z.string().min(1),
});

const storedMove = z.object({
  message: z.string(),
  move: z.object({
    id: z.string(),
    direction: z.enum(SAVINGS_DIRECTIONS),
    amountCents: z.number().int(),
    goalId: z.string().nullable(),
    createdAt: z.string(),
  }),
});

const outcomeRow = z.object({
  outcome: z.enum([
    "moved",
    "replayed",
    "idempotency_mismatch",
    "account_frozen",
    "staff_account",
    "account_closed",
    "setup_incomplete",
    "savings_not_open",
    "goal_not_found",
    "insufficient_funds",
  ]),
  status_code: z.number().int().nullable(),
  response: storedMove.nullable(),
  /** The available cents of the side the money would leave, for insufficient_funds. */
  detail: z.string().nullable(),
});

export interface SavingsMoveResult {
  statusCode: number;
  body: MoveSavingsResponse;
  replayed: boolean;
}

/** POST /api/savings/moves: an Idempotency-Key is required; the same key and move replay the first answer. */
export async function moveSavings(
  db: Db,
  userId: string,
  input: MoveSavingsInput,
  idempotencyKey: string | undefined,
  now = new Date(),
): Promise<SavingsMoveResult> {
  const key = requiredIdempotencyKey(idempotencyKey);
  const amount = parseMoney(input.amount);
  if (amount === null) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountInvalid);
  if (amount <= 0) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountPositive);
  // Beyond any balance the ledger can hold: said as the balance it would need.
  if (amount > MAX_CENTS) throw new AppError("VALIDATION", TRANSFER_MESSAGES.amountInvalid);
  const goalId = input.goalId ?? null;
  const call = moveSavingsCall.parse({
    user_id: userId,
    idempotency_key: key,
    request_hash: createHash("sha256")
      .update(JSON.stringify(["savings_move", input.direction, amount, goalId]))
      .digest("hex"),
    direction: input.direction,
    amount_cents: amount,
    goal_id: goalId,
    move_id: randomUUID(),
    transaction_id: randomUUID(),
    created_at: now.toISOString(),
    message: SAVINGS_MESSAGES.moved,
  });
  let row: z.infer<typeof outcomeRow> | undefined;
  try {
    [row] = await queryRows(
      db,
      sql`select outcome, status_code, response, detail from move_savings(${JSON.stringify(call)}::jsonb)`,
      outcomeRow,
    );
  } catch (err) {
    throw walletCheckRefusal(err) ?? err;
  }
  if (!row) throw new Error("move_savings answered no row");
  switch (row.outcome) {
    case "moved":
    case "replayed": {
      const { move, message } = row.response!;
      return {
        statusCode: row.status_code!,
        body: { message, move: { ...move, amount: formatMoney(move.amountCents) } },
        replayed: row.outcome === "replayed",
      };
    }
    case "idempotency_mismatch":
      throw new AppError("CONFLICT", "This Idempotency-Key was already used for a different move");
    case "account_frozen":
      throw new AppError("account_frozen", SECURITY_MESSAGES.accountFrozen);
    case "staff_account":
      throw new AppError("staff_account", TRANSFER_MESSAGES.adminCannotTransfer);
    case "account_closed":
      throw new AppError("account_closed", CLOSURE_MESSAGES.accountClosed);
    case "setup_incomplete":
      throw new AppError("setup_incomplete", TRANSFER_MESSAGES.setupIncomplete);
    case "savings_not_open":
      throw new AppError("savings_not_open", SAVINGS_MESSAGES.notOpen);
    case "goal_not_found":
      throw new AppError("savings_goal_not_found", SAVINGS_MESSAGES.goalNotFound);
    case "insufficient_funds": {
      const available = formatMoney(Math.max(Number(row.detail), 0));
      const words =
        input.direction === "to_savings"
          ? SAVINGS_MESSAGES.insufficientChecking
          : SAVINGS_MESSAGES.insufficientSavings;
      throw new AppError("insufficient_funds", `${words} (${available} available)`, {
        availableBalance: available,
      });
    }
  }
}
