import { sql } from "drizzle-orm";
import { type Address, getAddress, type Log, type PublicClient, parseAbiItem } from "viem";
import { z } from "zod";
import { queryRows, type Tx } from "@/server/db/client";
import { positionsOf } from "@/server/features/settlement/chain-logs";
import type { ChainConfig } from "@/server/lib/chain-config";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const BLOCKS_PER_QUERY = 2_000;
const ADDRESSES_PER_QUERY = 500;
const ROWS_PER_INSERT = 500;

type TransferLog = Log<bigint, number, false, typeof TRANSFER, true>;

const lower = (a: string) => a.toLowerCase();

/**
 * The first block a run reads (decision 057): where the last run stopped, or `CHAIN_REORG_WINDOW` blocks below
 * the final one if that is lower (a reorg deeper than the confirmations rewrites blocks already read), or the
 * lowest block whose logs were kept without their place in the transaction (read before migration 0047).
 */
async function firstBlockToRead(
  tx: Tx,
  chain: ChainConfig,
  cursor: { firstBlock: number; nextBlock: number },
  asOf: number,
) {
  const [unplaced] = await queryRows(
    tx,
    sql`select min(block_number)::text as block from chain_token_logs
        where chain_id = ${chain.chainId} and (tx_log_index is null or block_hash is null)`,
    z.object({ block: z.string().nullable() }),
  );
  const candidates = [cursor.nextBlock, asOf - chain.reorgWindow + 1];
  if (unplaced?.block) candidates.push(Number(unplaced.block));
  return Math.max(cursor.firstBlock, Math.min(...candidates));
}

/**
 * Reads again the token's Transfer logs from the window's first block up to `asOf` (final blocks only) and
 * replaces what chain_token_logs held for those blocks with what the canonical chain says now: a log a reorg
 * removed is gone, one it mined elsewhere is where it is now. Logs from or to the hot wallet, and to or from a
 * deposit address. Each log keeps its place within its transaction (`tx_log_index`), read from the receipt
 * unless the same block (by hash) was read before. Returns the first block read.
 */
export async function rereadLogs(
  tx: Tx,
  client: PublicClient,
  chain: ChainConfig,
  hot: Address,
  cursor: { firstBlock: number; nextBlock: number },
  asOf: number,
): Promise<number> {
  const from = await firstBlockToRead(tx, chain, cursor, asOf);
  const deposits = (
    await queryRows(
      tx,
      sql`select address from deposit_addresses order by derivation_index`,
      z.object({ address: z.string() }),
    )
  ).map((r) => getAddress(r.address));
  const filters: { from?: Address | Address[]; to?: Address | Address[] }[] = [{ from: hot }, { to: hot }];
  for (let i = 0; i < deposits.length; i += ADDRESSES_PER_QUERY) {
    const chunk = deposits.slice(i, i + ADDRESSES_PER_QUERY);
    filters.push({ to: chunk }, { from: chunk });
  }
  // One entry per log: a transfer from the hot wallet to a deposit address answers two filters.
  const logs = new Map<string, TransferLog>();
  for (let start = from; start <= asOf; start += BLOCKS_PER_QUERY) {
    const end = Math.min(asOf, start + BLOCKS_PER_QUERY - 1);
    for (const args of filters) {
      const found = (await client.getLogs({
        address: chain.usdcContract,
        event: TRANSFER,
        args,
        fromBlock: BigInt(start),
        toBlock: BigInt(end),
        strict: true,
      })) as TransferLog[];
      for (const l of found) {
        if (l.removed || !l.transactionHash || l.logIndex === null || !l.blockHash) continue;
        logs.set(`${lower(l.transactionHash)}:${l.logIndex}`, l);
      }
    }
  }

  // A block read before under the same hash is the same block: its logs keep the places already found.
  const known = new Map<string, number>();
  for (const row of await queryRows(
    tx,
    sql`select tx_hash, log_index, block_hash, tx_log_index as at from chain_token_logs
        where chain_id = ${chain.chainId} and block_number >= ${from}
          and tx_log_index is not null and block_hash is not null`,
    z.object({ tx_hash: z.string(), log_index: z.number(), block_hash: z.string(), at: z.number() }),
  )) {
    known.set(`${row.tx_hash}:${row.log_index}:${row.block_hash}`, row.at);
  }
  const keyOf = (l: TransferLog) => `${lower(l.transactionHash!)}:${l.logIndex}:${lower(l.blockHash!)}`;
  const unplaced = [...logs.values()].filter((l) => !known.has(keyOf(l)));
  const positions = await positionsOf(client, unplaced);
  const rows = [...logs.values()].map((l) => {
    const at = known.get(keyOf(l)) ?? positions.get(l);
    if (at === undefined) {
      // Its receipt no longer holds it: the chain reorganised under this run. Reading on would compare a chain
      // that no longer exists; the run ends as an error and the next one reads again.
      throw new Error(
        `The chain reorganised while reconciliation read it (transaction ${l.transactionHash} moved): the next run reads again`,
      );
    }
    return sql`(${chain.chainId}, ${lower(l.transactionHash!)}, ${l.logIndex}, ${at}, ${Number(l.blockNumber)},
      ${lower(l.blockHash!)}, ${lower(l.args.from)}, ${lower(l.args.to)}, ${l.args.value.toString()})`;
  });

  await tx.execute(
    sql`delete from chain_token_logs where chain_id = ${chain.chainId} and block_number >= ${from}`,
  );
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await tx.execute(sql`
      insert into chain_token_logs
        (chain_id, tx_hash, log_index, tx_log_index, block_number, block_hash, from_address, to_address, units)
      values ${sql.join(rows.slice(i, i + ROWS_PER_INSERT), sql`, `)}
      on conflict do nothing`);
  }
  return from;
}
