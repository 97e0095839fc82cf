import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import { DAILY_LIMIT_CENTS, type TransferLimits } from "@/contract/transfers";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { limitDayOf } from "@/server/features/transfers/limit-day";

const usage = z.object({ total: z.coerce.number(), own_limit: z.coerce.number().nullable() });

/**
 * GET /api/transfer/limits: today's (New York day) use of the bank's daily withdrawal limit and of the customer's
 * own, and the lower of what they leave, which is what the next money out may take (money_out_limits).
 */
export async function getTransferLimits(
  db: DbOrTx,
  userId: string,
  now = new Date(),
): Promise<TransferLimits> {
  // The same total and own limit money_out_limits checks against (transfers_today, self_limits_at).
  const [row] = await queryRows(
    db,
    sql`select d.total_today as total, s.daily_limit_cents as own_limit
      from transfers_today(${userId}::uuid, ${limitDayOf(now)}) d,
        self_limits_at(${userId}::uuid, ${now.toISOString()}::timestamptz) s`,
    usage,
  );
  const used = row.total;
  const remaining = Math.max(DAILY_LIMIT_CENTS - used, 0);
  const ownRemaining = row.own_limit === null ? null : Math.max(row.own_limit - used, 0);
  const effectiveLimit = Math.min(DAILY_LIMIT_CENTS, row.own_limit ?? DAILY_LIMIT_CENTS);
  const effectiveRemaining = Math.min(remaining, ownRemaining ?? remaining);
  return {
    dailyLimit: formatMoney(DAILY_LIMIT_CENTS),
    usedToday: formatMoney(used),
    remainingToday: formatMoney(remaining),
    dailyLimitCents: DAILY_LIMIT_CENTS,
    usedTodayCents: used,
    remainingTodayCents: remaining,
    ownDailyLimit: row.own_limit === null ? null : formatMoney(row.own_limit),
    ownDailyLimitCents: row.own_limit,
    ownRemainingToday: ownRemaining === null ? null : formatMoney(ownRemaining),
    ownRemainingTodayCents: ownRemaining,
    effectiveDailyLimit: formatMoney(effectiveLimit),
    effectiveDailyLimitCents: effectiveLimit,
    effectiveRemainingToday: formatMoney(effectiveRemaining),
    effectiveRemainingTodayCents: effectiveRemaining,
  };
}
