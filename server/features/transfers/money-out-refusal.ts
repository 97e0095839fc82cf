import { formatBankTime } from "@/contract/bank-time";
import { CLOSURE_MESSAGES } from "@/contract/closure";
import type { ErrorReason } from "@/contract/error-reasons";
import type { ErrorDetails } from "@/contract/errors";
import { formatMoney } from "@/contract/money";
import { RECIPIENT_MESSAGES } from "@/contract/recipients";
import { SECURITY_MESSAGES } from "@/contract/security";
import { personalLimitMessage, sendsBlockedMessage } from "@/contract/self-limits";
import {
  DAILY_LIMIT_CENTS,
  dailyCountLimitMessage,
  insufficientFundsMessage,
  TRANSFER_MESSAGES,
} from "@/contract/transfers";
import type { AppDeps } from "@/server/app-deps";
import type { Outcome } from "@/server/features/transfers/transfer-function";
import { AppError } from "@/server/lib/errors";

type Refusal = [message: string, details?: ErrorDetails];

/**
 * The money-out refusals (money_out_gate, money_out_limits and create_transfer_request's own), by outcome: each
 * outcome is the reason it answers (contract/error-reasons.ts, which holds its code, status and flags), with the
 * message and details built from the function's detail column. Shared by transfer requests and payments by $tag.
 */
const REFUSALS = {
  account_frozen: () => [SECURITY_MESSAGES.accountFrozen],
  account_closed: () => [CLOSURE_MESSAGES.accountClosed],
  staff_account: () => [TRANSFER_MESSAGES.adminCannotTransfer],
  setup_incomplete: () => [TRANSFER_MESSAGES.setupIncomplete],
  // detail: the end of a running cooldown (ISO 8601), or null while the block is on.
  sends_blocked: (_, detail) => {
    const until = detail ? new Date(detail) : null;
    return [
      // The same words Settings shows (formatBankTime): one time, one zone.
      sendsBlockedMessage(until ? formatBankTime(until) : null),
      until ? { blockedUntil: until.toISOString() } : {},
    ];
  },
  daily_count_limit: (deps) => {
    const countLimit = deps.config.transferDailyCountLimit;
    return [dailyCountLimitMessage(countLimit), { dailyCountLimit: countLimit }];
  },
  // detail carries the saved recipient's name for this outcome.
  lookalike_address: (_, detail) => [
    RECIPIENT_MESSAGES.lookalikeRefused(detail ?? ""),
    { lookalikeRecipientName: detail ?? "" },
  ],
  insufficient_funds: (_, detail) => {
    const available = formatMoney(Math.max(Number(detail), 0));
    return [insufficientFundsMessage(available), { availableBalance: available }];
  },
  daily_limit: (_, detail) => [
    TRANSFER_MESSAGES.dailyLimit,
    { remainingToday: formatMoney(Math.max(DAILY_LIMIT_CENTS - Number(detail), 0)) },
  ],
  // detail: "limit:today's total" in cents.
  personal_daily_limit: (_, detail) => {
    const [limit, used] = (detail ?? "0:0").split(":").map(Number) as [number, number];
    const remaining = formatMoney(Math.max(limit - used, 0));
    return [
      personalLimitMessage(formatMoney(limit), remaining),
      { personalDailyLimit: formatMoney(limit), remainingToday: remaining },
    ];
  },
} satisfies { [R in Outcome & ErrorReason]: (deps: AppDeps, detail: string | null) => Refusal };

export type RefusalOutcome = keyof typeof REFUSALS;

export function isRefusalOutcome(outcome: string): outcome is RefusalOutcome {
  return Object.hasOwn(REFUSALS, outcome);
}

/** The AppError for a refusal outcome of the money-out functions. */
export function moneyOutRefusal(deps: AppDeps, outcome: RefusalOutcome, detail: string | null): AppError {
  const [message, details]: Refusal = REFUSALS[outcome](deps, detail);
  return new AppError(outcome, message, details);
}
