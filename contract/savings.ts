import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { GOAL_MESSAGES, GOAL_NAME_MAX, SAVINGS_DIRECTIONS } from "@/contract/savings-text";

export {
  formatApy,
  GOAL_MESSAGES,
  SAVINGS_DIRECTIONS,
  SAVINGS_MESSAGES,
  type SavingsDirection,
} from "@/contract/savings-text";

const figure = z.object({ amount: z.string(), cents: z.number().int() });

export const savingsGoal = z.object({
  id: z.string(),
  name: z.string(),
  target: z.string(),
  targetCents: z.number().int(),
  targetDate: z.string().nullable(),
  saved: z.string(),
  savedCents: z.number().int(),
});
export type SavingsGoal = z.infer<typeof savingsGoal>;

/** GET /api/savings: the customer's savings account (null until opened) and the rate on offer. */
export const savingsOverview = z.object({
  rate: z.object({ apy: z.string(), apyBps: z.number().int(), since: z.string() }),
  /** An approved change of rate from a later New York day (decision 071), the soonest; null when none is coming. */
  nextRate: z.object({ apy: z.string(), apyBps: z.number().int(), effectiveOn: z.string() }).nullable(),
  account: z
    .object({
      id: z.string(),
      openedAt: z.string(),
      balance: figure,
      /** Interest accrued this month and not yet credited (paid on the month's last day), to the cent, rounded down. */
      accruedThisMonth: figure,
      /** Credited this calendar year (New York), plus this month's accrued. */
      earnedThisYear: figure,
      earnedAllTime: figure,
      /** The last New York day whose interest has accrued; null before the first. */
      accruedThrough: z.string().nullable(),
      goals: z.array(savingsGoal),
    })
    .nullable(),
});
export type SavingsOverview = z.infer<typeof savingsOverview>;

/** POST /api/savings/moves (an Idempotency-Key header is required). */
export const moveSavingsInput = z.strictObject({
  direction: z.enum(SAVINGS_DIRECTIONS, { error: "Choose which way to move the money" }),
  amount: z.union([z.number(), z.string().max(20)], { error: "Amount is required" }),
  goalId: z.guid("That savings goal does not exist").nullable().optional(),
});
export type MoveSavingsInput = z.infer<typeof moveSavingsInput>;

export const savingsMove = z.object({
  id: z.string(),
  direction: z.enum(SAVINGS_DIRECTIONS),
  amount: z.string(),
  amountCents: z.number().int(),
  goalId: z.string().nullable(),
  createdAt: z.string(),
});
export const moveSavingsResponse = z.object({ message: z.string(), move: savingsMove });
export type MoveSavingsResponse = z.infer<typeof moveSavingsResponse>;

/**
 * DELETE /api/savings (an Idempotency-Key header is required): what closing moved to checking, the interest it
 * paid included.
 */
export const closeSavingsResponse = z.object({
  message: z.string(),
  closing: z.object({
    accountId: z.string(),
    moved: z.string(),
    movedCents: z.number().int(),
    interest: z.string(),
    interestCents: z.number().int(),
    closedAt: z.string(),
  }),
});
export type CloseSavingsResponse = z.infer<typeof closeSavingsResponse>;

/** POST /api/savings/goals. */
export const createSavingsGoalInput = z.strictObject({
  name: z
    .string({ error: GOAL_MESSAGES.nameRequired })
    .trim()
    .min(1, GOAL_MESSAGES.nameRequired)
    .max(GOAL_NAME_MAX, GOAL_MESSAGES.nameTooLong),
  target: z.union([z.number(), z.string().max(20)], { error: GOAL_MESSAGES.targetRequired }),
  targetDate: z.iso.date("Enter the date as YYYY-MM-DD").nullable().optional(),
});
export type CreateSavingsGoalInput = z.infer<typeof createSavingsGoalInput>;

/** The customer's savings account (decision 068). Moves and closing carry an Idempotency-Key. */
export const SAVINGS_ENDPOINTS = endpoints({
  "GET /api/savings": { access: "user", replies: { 200: savingsOverview } },
  "POST /api/savings": {
    access: "user",
    replies: { 201: savingsOverview },
    errors: ["staff_account", "account_frozen", "account_closed", "setup_incomplete", "savings_already_open"],
    limit: { perMinute: 10, by: "user", bucket: "savings-change" },
  },
  "DELETE /api/savings": {
    access: "user",
    replies: { 200: closeSavingsResponse },
    errors: ["account_frozen", "staff_account", "account_closed", "savings_not_open"],
    idempotent: true,
    limit: { perMinute: 10, by: "user", bucket: "savings-change" },
  },
  "POST /api/savings/moves": {
    access: "user",
    body: moveSavingsInput,
    replies: { 201: moveSavingsResponse },
    errors: [
      "VALIDATION",
      "account_frozen",
      "staff_account",
      "account_closed",
      "setup_incomplete",
      "savings_not_open",
      "savings_goal_not_found",
      "insufficient_funds",
    ],
    idempotent: true,
    limit: { perMinute: 30, by: "user", bucket: "savings-move" },
  },
  "POST /api/savings/goals": {
    access: "user",
    body: createSavingsGoalInput,
    replies: { 201: savingsOverview },
    errors: [
      "VALIDATION",
      "CONFLICT",
      "staff_account",
      "account_frozen",
      "account_closed",
      "setup_incomplete",
      "savings_not_open",
    ],
    limit: { perMinute: 10, by: "user", bucket: "savings-change" },
  },
});
