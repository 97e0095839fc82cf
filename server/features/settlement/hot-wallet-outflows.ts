import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows, type Tx } from "@/server/db/client";

/**
 * The USDC the hot wallet has promised and not yet paid: payouts signed or sent whose transfer is not mined, and
 * treasury movements out of it (to cold, returns; decision 060) in the same state. Both workers check the
 * balance against this before signing, so neither signs money the other already spent.
 */
export async function unminedOutflowUnits(tx: Tx): Promise<bigint> {
  const [row] = await queryRows(
    tx,
    sql`select ((select coalesce(sum(units), 0) from payouts
                  where status in ('signed', 'sent') and mined_block is null)
              + (select coalesce(sum(units), 0) from treasury_movements
                  where kind in ('to_cold', 'return') and status in ('signed', 'sent') and mined_block is null))::text as units`,
    z.object({ units: z.string().nullable() }),
  );
  return BigInt(row?.units ?? "0");
}
