import { type SQL, sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/server/db/client";
import type { ChainConfig } from "@/server/features/settlement/chain-config";

/**
 * The three places where reconciliation decides what a log is (decision 057), each one SQL fragment so the work
 * running beside it (issue 48: deposits keyed on their place in the transaction, sweeps) plugs in here only.
 */

/** Whether chain_deposits has its log's place within the transaction yet (migration 0046, the deposits work). */
async function depositsHaveTxLogIndex(tx: Tx): Promise<boolean> {
  const [row] = await queryRows<{ ok: boolean }>(
    tx,
    sql`select exists (select 1 from information_schema.columns
          where table_schema = current_schema() and table_name = 'chain_deposits'
            and column_name = 'tx_log_index') as ok`,
  );
  return row?.ok === true;
}

/**
 * A `chain_deposits d` row is the `chain_token_logs l` row's deposit: the same transaction and the log's place
 * within it, which a reorg that mines the transaction again keeps. Until chain_deposits has that place (0046),
 * and for a row read before it, the block's log index stands in.
 */
export async function depositMatchesLog(tx: Tx): Promise<SQL> {
  return (await depositsHaveTxLogIndex(tx))
    ? sql`d.chain_id = l.chain_id and d.tx_hash = l.tx_hash and (case
            when d.tx_log_index is not null and l.tx_log_index is not null then d.tx_log_index = l.tx_log_index
            else d.log_index = l.log_index end)`
    : sql`d.chain_id = l.chain_id and d.tx_hash = l.tx_hash and d.log_index = l.log_index`;
}

/** How a credited deposit row names its log in a difference's reference ("log N"). */
export async function depositLogPosition(tx: Tx): Promise<SQL> {
  return (await depositsHaveTxLogIndex(tx)) ? sql`coalesce(d.tx_log_index, d.log_index)` : sql`d.log_index`;
}

/**
 * A `chain_token_logs l` transfer out of a deposit address is Pillar's own: a sweep to the treasury. Nothing
 * sweeps yet, so every such transfer is a difference; the sweeps work names its transactions here.
 */
export const isOurDepositOutflow = (): SQL => sql`false`;

/**
 * A `chain_token_logs l` transfer into the hot wallet is Pillar's own money: a sweep from a deposit address or a
 * top-up from a funding address (HOT_WALLET_FUNDING_ADDRESSES: the treasury, or the zero address for Circle Mint's
 * mints). Anything else is an unknown inflow, reported rather than absorbed.
 */
export function isKnownHotInflow(chain: Pick<ChainConfig, "hotWalletFundingAddresses">): SQL {
  const funding =
    chain.hotWalletFundingAddresses.length === 0
      ? sql`false`
      : sql`l.from_address in (${sql.join(
          chain.hotWalletFundingAddresses.map((a) => sql`${a.toLowerCase()}`),
          sql`, `,
        )})`;
  return sql`(${funding} or exists (select 1 from deposit_addresses a where a.address = l.from_address))`;
}
