import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  TransactionReceiptNotFoundError,
} from "viem";
import { depositForwarderFactoryAbi } from "@/server/features/settlement/contracts/deposit-forwarders.artifact";
import { pillarUsdAbi } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import type { ChainConfig } from "@/server/lib/chain-config";
import type { TreasuryConfig } from "@/server/lib/treasury-config";

/*
 * The chain's client and the start-time checks that ask the node. The settings themselves (CHAIN_RPC_URL and
 * friends, parsed with the rest of the environment) are server/lib/chain-config.ts: the config is the ground
 * floor and never imports a feature.
 */

export function chainClient(chain: Pick<ChainConfig, "rpcUrl">): PublicClient {
  // cacheTime 0: a cached block number would make a payout's or a deposit's depth lag by seconds.
  return createPublicClient({
    cacheTime: 0,
    transport: http(chain.rpcUrl, { retryCount: 1, timeout: 10_000 }),
  });
}

/** A transaction's receipt, or null while the node has none (not mined, dropped, or reorged out). */
export async function receiptOf(client: PublicClient, hash: Hex) {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw err;
  }
}

/**
 * The start-time checks that need the node: it reports CHAIN_ID, USDC_CONTRACT has code and 6 decimals.
 * Returns the problems, each naming its variable (empty: all good).
 */
export async function verifyChain(chain: ChainConfig, client = chainClient(chain)): Promise<string[]> {
  let reported: number;
  try {
    reported = await client.getChainId();
  } catch (err) {
    return [`CHAIN_RPC_URL: the node does not answer (${(err as Error).message.split("\n")[0]})`];
  }
  if (reported !== chain.chainId) return [`CHAIN_ID is ${chain.chainId} but the node reports ${reported}`];
  const code = await client.getCode({ address: chain.usdcContract });
  if (!code || code === "0x") return [`USDC_CONTRACT ${chain.usdcContract} has no code on chain ${reported}`];
  try {
    const decimals = await client.readContract({
      address: chain.usdcContract,
      abi: pillarUsdAbi,
      functionName: "decimals",
    });
    if (decimals !== 6) return [`USDC_CONTRACT has ${decimals} decimals; USDC has 6`];
  } catch {
    return [`USDC_CONTRACT ${chain.usdcContract} does not answer decimals(): not an ERC-20 token`];
  }
  return verifyTreasury(
    chain.treasury,
    { usdcContract: chain.usdcContract, hotWallet: chain.signer.address },
    client,
  );
}

/** The chain's name customers read (contract/settlement.ts: the receipt shows it too). */
export { chainName } from "@/contract/settlement";

/**
 * The start-time check of DEPOSIT_FACTORY: it has code, sweeps USDC_CONTRACT, and the hot wallet owns it (only the
 * owner can sweep, and swept money goes to the owner). Answers the problems, each naming the variable.
 */
export async function verifyTreasury(
  treasury: TreasuryConfig,
  own: { usdcContract: Address; hotWallet: Address },
  client: PublicClient,
): Promise<string[]> {
  const factory = treasury.depositFactory;
  if (!factory) return [];
  const code = await client.getCode({ address: factory });
  if (!code || code === "0x") return [`DEPOSIT_FACTORY ${factory} has no code`];
  try {
    const [token, owner] = await Promise.all([
      client.readContract({ address: factory, abi: depositForwarderFactoryAbi, functionName: "token" }),
      client.readContract({ address: factory, abi: depositForwarderFactoryAbi, functionName: "owner" }),
    ]);
    if (getAddress(token) !== own.usdcContract)
      return [`DEPOSIT_FACTORY sweeps ${token}, not USDC_CONTRACT ${own.usdcContract}`];
    if (getAddress(owner) !== own.hotWallet)
      return [`DEPOSIT_FACTORY is owned by ${owner}, not the hot wallet ${own.hotWallet} (PAYOUT_KEY)`];
  } catch {
    return [
      `DEPOSIT_FACTORY ${factory} does not answer token() and owner(): not a deposit forwarder factory`,
    ];
  }
  return [];
}
