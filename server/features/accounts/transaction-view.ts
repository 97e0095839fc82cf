import { sql } from "drizzle-orm";
import { z } from "zod";
import { centsToDecimal } from "@/contract/money";
import type { Transaction } from "@/contract/transactions";
import { type DbOrTx, queryRows } from "@/server/db/client";
import type { transactions } from "@/server/db/schema";

type TransactionRow = typeof transactions.$inferSelect;

export function toTransaction(row: TransactionRow): Transaction {
  return {
    id: row.id,
    userId: row.userId,
    type: row.type,
    amount: centsToDecimal(row.amount),
    fee: centsToDecimal(row.fee),
    netAmount: centsToDecimal(row.netAmount),
    amountCents: row.amount,
    feeCents: row.fee,
    netAmountCents: row.netAmount,
    description: row.description,
    category: row.category,
    status: row.status,
    date: row.createdAt.toISOString(),
    transferRequestId: row.sourceType === "transfer_request" ? row.sourceId : null,
    chainTxHash: null,
    chainTxUrl: null,
    chainConfirmations: null,
    chainConfirmationsRequired: null,
  };
}

/** What the history shows of the configured chain: explorer links and the confirmations asked (CHAIN_*). */
export interface ChainView {
  explorerUrl?: string;
  confirmations: number;
}

interface OnChain {
  hash: string;
  /** The payout worker's last reading (payouts.confirmations); null for a deposit, credited only once deep enough. */
  depth: number | null;
  completed: boolean;
}

/**
 * The on-chain transaction of each row that moved money on chain: a payout's mined transaction (or, until it is
 * mined, the last one broadcast) with its depth, and a deposit's transaction, read in one query for the whole list.
 */
export async function chainHashesOf(
  db: DbOrTx,
  rows: readonly TransactionRow[],
): Promise<Map<string, OnChain>> {
  const transfers = rows
    .filter((r) => r.sourceType === "transfer_request" && r.sourceId)
    .map((r) => r.sourceId!);
  const deposits = rows.filter((r) => r.sourceType === "usdc_deposit" && r.sourceId).map((r) => r.sourceId!);
  if (transfers.length === 0 && deposits.length === 0) return new Map();
  const uuids = (ids: string[]) =>
    sql`array[${sql.join(ids.length ? ids.map((id) => sql`${id}`) : [sql`null`], sql`, `)}]::uuid[]`;
  const found = await queryRows(
    db,
    sql`select p.transfer_request_id as source_id,
               coalesce(p.mined_hash, (select a.tx_hash from payout_attempts a
                                        where a.payout_id = p.id and a.first_broadcast_at is not null
                                        order by a.created_at desc, a.id desc limit 1)) as hash,
               case when p.mined_hash is null then 0 else p.confirmations end as depth,
               p.status = 'completed' as completed
        from payouts p
        where p.transfer_request_id = any(${uuids(transfers)}) and p.status in ('sent', 'completed')
        union all
        select d.id, d.tx_hash, null, true from chain_deposits d where d.id = any(${uuids(deposits)})`,
    z.object({
      source_id: z.string(),
      hash: z.string().nullable(),
      depth: z.number().nullable(),
      completed: z.boolean(),
    }),
  );
  return new Map(
    found
      .filter((f) => f.hash)
      .map((f) => [f.source_id, { hash: f.hash!, depth: f.depth, completed: f.completed }]),
  );
}

/** toTransaction for a list, with the on-chain hash, its confirmations and its explorer link where there is one. */
export async function toTransactionsWithHashes(
  db: DbOrTx,
  rows: readonly TransactionRow[],
  chain?: ChainView,
): Promise<Transaction[]> {
  const hashes = await chainHashesOf(db, rows);
  return rows.map((row) => {
    const onChain = row.sourceId ? hashes.get(row.sourceId) : undefined;
    if (!onChain) return toTransaction(row);
    const required = chain?.confirmations ?? null;
    const depth =
      onChain.completed || onChain.depth === null
        ? required
        : Math.min(onChain.depth, required ?? onChain.depth);
    return {
      ...toTransaction(row),
      chainTxHash: onChain.hash,
      chainTxUrl: chain?.explorerUrl ? `${chain.explorerUrl}/tx/${onChain.hash}` : null,
      chainConfirmations: depth,
      chainConfirmationsRequired: required,
    };
  });
}
