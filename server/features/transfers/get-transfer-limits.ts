import { and, eq, sql } from "drizzle-orm";
import { formatMoney } from "@/contract/money";
import { DAILY_LIMIT_CENTS, type TransferLimits } from "@/contract/transfers";
import type { DbOrTx } from "@/server/db/client";
import { transferRequests } from "@/server/db/schema";
import { limitDayOf } from "@/server/features/transfers/limit-day";

/** GET /api/transfer/limits: today's (New York day) use of the daily withdrawal limit. */
export async function getTransferLimits(
  db: DbOrTx,
  userId: string,
  now = new Date(),
): Promise<TransferLimits> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${transferRequests.amount}), 0)::text` })
    .from(transferRequests)
    .where(
      and(
        eq(transferRequests.userId, userId),
        eq(transferRequests.limitDay, limitDayOf(now)),
        sql`${transferRequests.status} in ('pending', 'processing', 'completed')`,
      ),
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
