// `CHAIN=local npm start` (docs/testing.md): a throwaway anvil chain for development, started from the npm-installed
// binary, with the PillarUSD token deployed from the committed bytecode and the hot wallet funded. Every key
// here is one of anvil's published development keys: never use them for real money.
// `npm run chain:fund -- <address> [dollars]` mints test USDC to any address on that chain (a demo deposit).
import fs from "node:fs";
import path from "node:path";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { createPublicClient, createWalletClient, getAddress, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { startAnvil } from "./anvil.mjs";

const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
const DEPLOYER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const HOT_WALLET_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

const stateFile = (dataDir) => path.join(dataDir, "local-chain.json");

async function tokenArtifact() {
  // Node 24 strips the types of this generated module on import.
  return import("../server/features/settlement/contracts/pillar-usd.artifact.ts");
}

async function forwardersArtifact() {
  return import("../server/features/settlement/contracts/deposit-forwarders.artifact.ts");
}

/** Starts anvil (1-second blocks), deploys the token, funds the hot wallet; returns the server's env and a stop. */
export async function startLocalChain(dataDir) {
  const node = await startAnvil({ blockTime: 1 });
  const { pillarUsdAbi, pillarUsdBytecode } = await tokenArtifact();
  const chain = { ...foundry, id: node.chainId };
  const transport = http(node.url);
  const publicClient = createPublicClient({ chain, transport });
  const owner = privateKeyToAccount(DEPLOYER_KEY);
  const wallet = createWalletClient({ chain, transport, account: owner });
  const hash = await wallet.deployContract({
    abi: pillarUsdAbi,
    bytecode: pillarUsdBytecode,
    args: [owner.address],
  });
  const { contractAddress } = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 200 });
  const hotWallet = privateKeyToAccount(HOT_WALLET_KEY).address;
  const funded = await wallet.writeContract({
    address: contractAddress,
    abi: pillarUsdAbi,
    functionName: "mint",
    args: [hotWallet, parseUnits("10000", 6)],
  });
  await publicClient.waitForTransactionReceipt({ hash: funded, pollingInterval: 200 });
  // The deposit forwarders' factory (decision 060), owned by the hot wallet: new deposit addresses are swept.
  const { depositForwarderFactoryAbi, depositForwarderFactoryBytecode } = await forwardersArtifact();
  const factoryHash = await wallet.deployContract({
    abi: depositForwarderFactoryAbi,
    bytecode: depositForwarderFactoryBytecode,
    args: [hotWallet, contractAddress],
  });
  const factory = (await publicClient.waitForTransactionReceipt({ hash: factoryHash, pollingInterval: 200 }))
    .contractAddress;
  // The deposit branch: a watch-only key off anvil's mnemonic, on an account the prefunded keys do not use.
  const xpub = HDKey.fromMasterSeed(mnemonicToSeedSync(ANVIL_MNEMONIC)).derive(
    "m/44'/60'/1'/0",
  ).publicExtendedKey;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(stateFile(dataDir), JSON.stringify({ rpcUrl: node.url, token: contractAddress }));
  console.info(
    `Local chain: anvil at ${node.url} (chain ${node.chainId}, 1-second blocks), USDC ${contractAddress}, deposit factory ${factory}, hot wallet ${hotWallet} funded with 10,000 USDC. Send test USDC to a deposit address: npm run chain:fund -- <address> 25`,
  );
  return {
    env: {
      CHAIN_RPC_URL: node.url,
      CHAIN_ID: String(node.chainId),
      USDC_CONTRACT: contractAddress,
      PAYOUT_KEY: HOT_WALLET_KEY,
      DEPOSIT_XPUB: xpub,
      CHAIN_CONFIRMATIONS: "3",
      // The hot wallet is funded by minting (from the zero address), as Circle Mint would: Pillar's own money.
      HOT_WALLET_FUNDING_ADDRESSES: "0x0000000000000000000000000000000000000000",
      DEPOSIT_FACTORY: factory,
      // Sweep what arrives within a minute on the development chain.
      SWEEP_MIN_USDC: "1.00",
      SWEEP_MIN_AGE: "60",
    },
    stop: () => node.stop(),
  };
}

/** Mints `dollars` of test USDC to `to` on the chain `CHAIN=local npm start` is running. */
export async function fundOnLocalChain(dataDir, to, dollars = "25") {
  const { rpcUrl, token } = JSON.parse(fs.readFileSync(stateFile(dataDir), "utf8"));
  const { pillarUsdAbi } = await tokenArtifact();
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ transport });
  const chainId = await publicClient.getChainId();
  const wallet = createWalletClient({
    chain: { ...foundry, id: chainId },
    transport,
    account: privateKeyToAccount(DEPLOYER_KEY),
  });
  const hash = await wallet.writeContract({
    address: token,
    abi: pillarUsdAbi,
    functionName: "mint",
    args: [getAddress(to), parseUnits(dollars, 6)],
  });
  await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 200 });
  return hash;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [to, dollars] = process.argv.slice(2);
  if (!to) {
    console.error("usage: npm run chain:fund -- <address> [dollars]");
    process.exit(1);
  }
  const hash = await fundOnLocalChain(path.resolve(process.env.DATA_DIR ?? "./data"), to, dollars);
  console.info(`minted ${dollars ?? "25"} USDC to ${to}: ${hash}`);
}
