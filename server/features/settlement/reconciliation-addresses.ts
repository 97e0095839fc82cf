import { sql } from "drizzle-orm";
import { type Address, getAddress, type PublicClient } from "viem";
import { z } from "zod";
import { queryRows, type Tx } from "@/server/db/client";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import type { Item } from "@/server/features/settlement/reconciliation-differences";
import { isOurDepositOutflow } from "@/server/features/settlement/reconciliation-matching";
import type { ChainConfig } from "@/server/lib/chain-config";

/**
 * balanceOf calls per eth_call. A deployless multicall is contract-creation code, capped at 49,152 bytes
 * (EIP-3860) with Multicall3's own 5.6 kB in it; ~224 bytes a call: 180 fail on anvil, 150 pass. 100 leaves room
 * for a node's own limits; 5,000 balances took 0.45 s on anvil.
 */
const ADDRESSES_PER_CALL = 100;
/** Deposit rows the watcher keeps for a transfer that is on chain (every state: dust included). */
const RECORDED_STATES = sql`('pending', 'held', 'credited', 'below_cent')`;

/** The token balances of `addresses` at `block`, by deployless multicall (no contract needed on the chain). */
async function balancesAt(client: PublicClient, chain: ChainConfig, addresses: string[], block: number) {
  const balances = new Map<string, bigint>();
  for (let i = 0; i < addresses.length; i += ADDRESSES_PER_CALL) {
    const chunk = addresses.slice(i, i + ADDRESSES_PER_CALL);
    const calls = chunk.map((a) => ({
      address: chain.usdcContract,
      abi: pillarUsdAbi,
      functionName: "balanceOf" as const,
      args: [getAddress(a) as Address] as const,
      blockNumber: BigInt(block),
    }));
    let results: bigint[];
    try {
      results = (await client.multicall({
        contracts: calls,
        allowFailure: false,
        deployless: true,
        batchSize: 0,
        blockNumber: BigInt(block),
      })) as bigint[];
    } catch {
      // A node that refuses creation code in eth_call: one call per address, slower and just as exact.
      results = [];
      for (const call of calls) results.push(await client.readContract(call));
    }
    chunk.forEach((a, at) => {
      balances.set(a, results[at]!);
    });
  }
  return balances;
}

/**
 * Deposit addresses (decision 057): every one that ever received a logged transfer or has a recorded deposit
 * holds, at `asOf`, its recorded deposits (every state, dust included) less Pillar's own transfers out of it
 * (sweeps). Every transfer out of a deposit address that is not Pillar's is a difference of its own.
 */
export async function compareDepositAddresses(
  tx: Tx,
  client: PublicClient,
  chain: ChainConfig,
  first: number,
  asOf: number,
): Promise<Item[]> {
  const items: Item[] = [];
  const id = chain.chainId;
  const strangers = await queryRows(
    tx,
    sql`select l.tx_hash, l.from_address, l.to_address, l.units::text from chain_token_logs l
        join deposit_addresses a on a.address = l.from_address
        where l.chain_id = ${id} and l.block_number between ${first} and ${asOf} and not ${isOurDepositOutflow()}
        order by l.block_number, l.log_index`,
    z.object({ tx_hash: z.string(), from_address: z.string(), to_address: z.string(), units: z.string() }),
  );
  for (const s of strangers) {
    items.push({
      area: "deposits",
      kind: "deposit_outflow",
      outcome: "difference",
      txHash: s.tx_hash,
      reference: s.from_address,
      chainUnits: s.units,
      ledgerUnits: "0",
      detail: `USDC left a deposit address to ${s.to_address} in a transaction Pillar did not sign`,
    });
  }

  const expected = await queryRows(
    tx,
    sql`with watched as (
          select l.to_address as address from chain_token_logs l
            join deposit_addresses a on a.address = l.to_address where l.chain_id = ${id}
          union
          select d.to_address from chain_deposits d where d.chain_id = ${id})
        select w.address,
               (coalesce((select sum(d.units) from chain_deposits d
                           where d.chain_id = ${id} and d.to_address = w.address and d.block_number <= ${asOf}
                             and d.status in ${RECORDED_STATES}), 0)
                - coalesce((select sum(l.units) from chain_token_logs l
                             where l.chain_id = ${id} and l.from_address = w.address
                               and l.block_number between ${first} and ${asOf} and ${isOurDepositOutflow()}), 0)
               )::text as units
        from watched w order by w.address`,
    z.object({ address: z.string(), units: z.string() }),
  );
  const balances = await balancesAt(
    client,
    chain,
    expected.map((e) => e.address),
    asOf,
  );
  for (const e of expected) {
    const onChain = balances.get(e.address) ?? 0n;
    const ledger = BigInt(e.units);
    if (onChain === ledger) continue;
    items.push({
      area: "deposits",
      kind: "address_balance",
      outcome: "difference",
      reference: e.address,
      chainUnits: onChain,
      ledgerUnits: ledger,
      detail:
        onChain < ledger
          ? "The deposit address holds less USDC than its recorded deposits less Pillar's sweeps"
          : "The deposit address holds more USDC than its recorded deposits less Pillar's sweeps",
    });
  }
  return items;
}
