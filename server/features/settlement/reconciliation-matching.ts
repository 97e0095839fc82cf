import { type SQL, sql } from "drizzle-orm";
import type { ChainConfig } from "@/server/lib/chain-config";

/**
 * The three places where reconciliation decides what a log is (decision 057), each one SQL fragment: a deposit's
 * log, Pillar's own transfers out of deposit addresses (sweeps) and the known sources of the hot wallet's USDC.
 */

/**
 * A `chain_deposits d` row is the `chain_token_logs l` row's deposit: the same transaction and the log's place
 * within it, which a reorg that mines the transaction again keeps (0046, decision 056). A deposit row from before
 * 0046 that the watcher has not yet given its place keeps the block's log index, as does a log read before 0047.
 */
export const depositMatchesLog = (): SQL =>
  sql`d.chain_id = l.chain_id and d.tx_hash = l.tx_hash and (case
        when d.tx_log_index is not null and l.tx_log_index is not null then d.tx_log_index = l.tx_log_index
        else d.log_index = l.log_index end)`;

/** How a credited deposit row names its log in a difference's reference ("log N"). */
export const depositLogPosition = (): SQL => sql`coalesce(d.tx_log_index, d.log_index)`;

/**
 * A `chain_token_logs l` transfer out of a deposit address is Pillar's own when it is a sweep the treasury worker
 * signed (decision 060): one of its attempts' transactions, from that address to where the sweep was for. Anything
 * else moved a customer's USDC with the deposit address's key or code, behind Pillar's back.
 */
export const isOurDepositOutflow = (): SQL =>
  sql`exists (select 1 from treasury_movement_attempts ta join treasury_movements m on m.id = ta.movement_id
               where ta.tx_hash = l.tx_hash and m.kind = 'sweep' and m.from_address = l.from_address
                 and m.to_address = l.to_address)`;

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
