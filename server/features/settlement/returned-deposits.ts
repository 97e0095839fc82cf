import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatMoney } from "@/contract/money";
import type { ReturnedDeposit } from "@/contract/settlement";
import { type DbOrTx, queryRows } from "@/server/db/client";

const LISTED = 100;

/**
 * Customers a deposit reversal left below zero (decision 056): their wallet owes what they had spent of a
 * deposit a deep reorg removed, and nothing leaves it until money they add covers it. For the Settlement tab,
 * largest debt first; a partial index-free scan is fine: only wallets with `returned_owed > 0` qualify.
 */
export async function findReturnedDeposits(db: DbOrTx): Promise<ReturnedDeposit[]> {
  const rows = await queryRows(
    db,
    sql`select a.user_id, u.email, a.balance::text as balance, a.returned_owed::text as owed,
               (select count(*)::int from chain_deposits d where d.user_id = a.user_id and d.status = 'reversed') as reversed
          from ledger_accounts a left join users u on u.id = a.user_id
         where a.kind = 'wallet' and a.returned_owed > 0 and a.user_id is not null
         order by a.returned_owed desc, a.user_id
         limit ${LISTED}`,
    z.object({
      user_id: z.string(),
      email: z.string().nullable(),
      balance: z.string(),
      owed: z.string(),
      reversed: z.number(),
    }),
  );
  return rows.map((r) => ({
    userId: r.user_id,
    email: r.email ?? "",
    balance: formatMoney(Number(r.balance)),
    owed: formatMoney(Number(r.owed)),
    reversedDeposits: r.reversed,
  }));
}
