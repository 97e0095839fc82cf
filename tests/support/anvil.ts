import { HDKey } from "@scure/bip32";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  toHex,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, expect } from "vitest";
import { type AnvilNode, startAnvil } from "@/scripts/anvil.mjs";
import type { Database } from "@/server/db/client";
import {
  depositForwarderFactoryAbi,
  depositForwarderFactoryBytecode,
} from "@/server/features/settlement/contracts/deposit-forwarders.artifact";
import { pillarUsdAbi, pillarUsdBytecode } from "@/server/features/settlement/contracts/pillar-usd.artifact";
import { runReconciliation } from "@/server/features/settlement/reconciliation";
import type { ChainConfig } from "@/server/lib/chain-config";
import { lateBound } from "@/tests/support/late-bound";

/** anvil's well-known development keys (public knowledge: never hold real money with them). */
export const ANVIL_KEYS = {
  deployer: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  hotWallet: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  payer: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
} as const satisfies Record<string, Hex>;

export interface TestChain {
  node: AnvilNode;
  token: Address;
  /** The deposit forwarders' factory (decision 060), owned by the hot wallet; used when chainEnv is asked to. */
  factory: Address;
  publicClient: PublicClient;
  /** The token's owner: mints, pauses and blacklists. */
  mint(to: Address, units: bigint): Promise<Hex>;
  /** A token transfer signed by `fromKey` (one of anvil's funded keys): its log's `from` is that key's address. */
  send(fromKey: Hex, to: Address, units: bigint): Promise<Hex>;
  /** Mines `blocks` empty blocks. */
  mine(blocks: number): Promise<void>;
  /** anvil_reorg: replaces the last `depth` blocks with as many empty ones. */
  reorg(depth: number): Promise<void>;
  blockNumber(): Promise<number>;
  /** A fresh watch-only deposit branch (xpub) from a random seed. */
  xpub: string;
  /** The private key of deposit address `index`: the tests hold the seed the server never sees. */
  depositKey(index: number): Hex;
  /** Sets an address's native coin (gas) balance. */
  setGas(address: Address, wei: bigint): Promise<void>;
}

/** Starts anvil on a free port and deploys PillarUSD from the committed bytecode. */
export async function startTestChain(): Promise<TestChain> {
  const node = await startAnvil();
  const transport = http(node.url);
  const chain = { ...foundry, id: node.chainId };
  const publicClient = createPublicClient({ chain, transport }) as PublicClient;
  const owner = privateKeyToAccount(ANVIL_KEYS.deployer);
  const wallet = createWalletClient({ chain, transport, account: owner });
  const testClient = createTestClient({ chain, transport, mode: "anvil" });
  const deployHash = await wallet.deployContract({
    abi: pillarUsdAbi,
    bytecode: pillarUsdBytecode,
    args: [owner.address],
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 50 });
  const token = receipt.contractAddress!;
  const factoryHash = await wallet.deployContract({
    abi: depositForwarderFactoryAbi,
    bytecode: depositForwarderFactoryBytecode,
    args: [privateKeyToAccount(ANVIL_KEYS.hotWallet).address, token],
  });
  const factory = (await publicClient.waitForTransactionReceipt({ hash: factoryHash, pollingInterval: 50 }))
    .contractAddress!;
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const branch = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0");
  return {
    node,
    token,
    factory,
    publicClient,
    xpub: branch.publicExtendedKey,
    depositKey: (index) => toHex(branch.deriveChild(index).privateKey!),
    async setGas(address, wei) {
      await testClient.setBalance({ address, value: wei });
    },
    async mint(to, units) {
      const hash = await wallet.writeContract({
        address: token,
        abi: pillarUsdAbi,
        functionName: "mint",
        args: [to, units],
      });
      await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
    async send(fromKey, to, units) {
      const sender = createWalletClient({ chain, transport, account: privateKeyToAccount(fromKey) });
      const hash = await sender.writeContract({
        address: token,
        abi: pillarUsdAbi,
        functionName: "transfer",
        args: [to, units],
      });
      await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return hash;
    },
    async mine(blocks) {
      await testClient.mine({ blocks });
    },
    async reorg(depth) {
      await testClient.request({ method: "anvil_reorg" as never, params: [depth, []] as never });
    },
    async blockNumber() {
      // Not viem's cached number (kept for its polling interval): a reorg's depth is counted from the tip now.
      return Number(await publicClient.getBlockNumber({ cacheTime: 0 }));
    },
  };
}

/** One anvil with the token for the whole file. */
export function setUpTestChain(): TestChain {
  const chain = lateBound<TestChain>("The test chain");
  let started: TestChain | undefined;
  beforeAll(async () => {
    started = await startTestChain();
    chain.set(started);
  }, 60_000);
  afterAll(async () => {
    await started?.node.stop();
  });
  return chain.value;
}

/**
 * The chain variables for an app or process pointed at `chain`. `withFactory`: new deposit addresses are the
 * factory's CREATE2 forwarders (DEPOSIT_FACTORY, decision 060); without it they derive from the xpub.
 */
export const chainEnv = (
  chain: TestChain,
  confirmations = 3,
  withFactory = false,
): Record<string, string> => ({
  CHAIN_RPC_URL: chain.node.url,
  CHAIN_ID: String(chain.node.chainId),
  USDC_CONTRACT: chain.token,
  PAYOUT_KEY: ANVIL_KEYS.hotWallet,
  DEPOSIT_XPUB: chain.xpub,
  CHAIN_CONFIRMATIONS: String(confirmations),
  // The tests fund the hot wallet by minting to it (from the zero address), as Circle Mint mints a bank's dollars:
  // Pillar's own money, not an unknown inflow (decision 057).
  HOT_WALLET_FUNDING_ADDRESSES: zeroAddress,
  ...(withFactory ? { DEPOSIT_FACTORY: chain.factory } : {}),
});

/**
 * A difference a test made on purpose, which every later reconciliation of the file must still find open: USDC
 * moved out of the hot wallet behind Pillar's back (`unknown_outflow`; the hot wallet is then short by it too),
 * USDC sent to the hot wallet from outside (`unknown_inflow`), USDC moved out of a deposit address by its key
 * (`deposit_outflow`), or a credited deposit a reorg deeper than the confirmations took off the chain
 * (`credited_not_on_chain`); the last two leave their deposit address's balance short too (decision 057).
 */
export interface KnownDifference {
  kind: "unknown_outflow" | "unknown_inflow" | "deposit_outflow" | "credited_not_on_chain";
  txHash: string;
  units: bigint;
}

const AREA_OF: Record<KnownDifference["kind"], string> = {
  unknown_outflow: "payouts",
  unknown_inflow: "hot_wallet",
  deposit_outflow: "deposits",
  credited_not_on_chain: "deposits",
};

/**
 * The chain agrees with the ledger (decision 038), as every chain test ends: mines the confirmations so every
 * transfer is at depth, reconciles, and expects no open difference — or exactly the differences the file's tests
 * made on purpose (`known`), the hot wallet short by the outflows among them and each deposit address short by
 * its own. Any other open difference fails, naming each.
 */
export async function expectReconciled(
  chain: TestChain,
  database: Database,
  config: ChainConfig,
  known: readonly KnownDifference[] = [],
) {
  await chain.mine(config.confirmations);
  const report = await runReconciliation(database.db, config, { trigger: "staff" });
  // Open after this run: found by it, whether first or again (a difference is kept once, decision 057).
  const items = (await database.query(
    `select area, kind, tx_hash, reference, chain_units, ledger_units, detail from reconciliation_differences
      where chain_id = $1 and resolved_at is null order by id`,
    [config.chainId],
  )) as {
    area: string;
    kind: string;
    tx_hash: string | null;
    reference: string | null;
    chain_units: string;
    ledger_units: string;
  }[];
  if (known.length === 0) {
    expect({ status: report?.status, items }).toEqual({ status: "clean", items: [] });
    return;
  }
  const short = known.filter((k) => k.kind === "unknown_outflow").reduce((sum, k) => sum + k.units, 0n);
  const addressShort = new Map<string, bigint>();
  for (const k of known) {
    if (k.kind !== "deposit_outflow" && k.kind !== "credited_not_on_chain") continue;
    const [row] = (await database.query(
      k.kind === "deposit_outflow"
        ? "select from_address as address from chain_token_logs where tx_hash = $1 limit 1"
        : "select to_address as address from chain_deposits where tx_hash = $1 limit 1",
      [k.txHash],
    )) as { address: string }[];
    addressShort.set(row!.address, (addressShort.get(row!.address) ?? 0n) + k.units);
  }
  const expected = [
    ...known.map((k) => ({ area: AREA_OF[k.kind], kind: k.kind, txHash: k.txHash, units: k.units })),
    ...(short > 0n ? [{ area: "hot_wallet", kind: "balance", txHash: null, units: short }] : []),
    ...[...addressShort].map(([, units]) => ({
      area: "deposits",
      kind: "address_balance",
      txHash: null,
      units,
    })),
  ];
  const seen = items.map((i) => {
    const gap = BigInt(i.ledger_units ?? "0") - BigInt(i.chain_units ?? "0");
    const units = i.kind === "unknown_inflow" ? BigInt(i.chain_units) : gap < 0n ? -gap : gap;
    return { area: i.area, kind: i.kind, txHash: i.tx_hash, units };
  });
  expect({ status: report?.status, items: seen }).toEqual({
    status: "differences",
    items: expect.arrayContaining(expected),
  });
  expect(seen).toHaveLength(expected.length);
}
