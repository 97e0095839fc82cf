import { sql } from "drizzle-orm";
import { formatMoney } from "@/contract/money";
import { DAILY_LIMIT_CENTS, type TransferLimits } from "@/contract/transfers";
import { type DbOrTx, queryRows } from "@/server/db/client";
import { limitDayOf } from "@/server/features/transfers/limit-day";

/** GET /api/transfer/limits: today's (New York day) use of the daily withdrawal limit. */
export async function getTransferLimits(
  db: DbOrTx,
  userId: string,
  now = new Date(),
): Promise<TransferLimits> {
  // The same total create_transfer_request checks against the limit (transfers_today, server/db/functions).
  const [row] = await queryRows<{ total: string }>(
    db,
    sql`select total_today::text as total from transfers_today(${userId}::uuid, ${limitDayOf(now)})`,
  );
  const used = Number(row.total);
  const remaining = Math.max(DAILY_LIMIT_CENTS - used, 0);
  return {
    dailyLimit: formatMoney(DAILY_LIMIT_CENTS),
    usedToday: formatMoney(used),
    remainingToday: formatMoney(remaining),
    dailyLimitCents: DAILY_LIMIT_CENTS,
    usedTodayCents: used,
    remainingTodayCents: remaining,
  };
}
