import fs from "node:fs";
import { inspect } from "node:util";
import { HDKey } from "@scure/bip32";
import {
  type Address,
  getAddress,
  type Hex,
  isAddress,
  parseEther,
  parseGwei,
  type TransactionSerializable,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { parseMoney } from "@/contract/money";
import { parseTreasuryConfig, type TreasuryConfig } from "@/server/lib/treasury-config";

/*
 * Chain settlement's settings, read from the environment with the rest of the config (server/config.ts). Only
 * parsing lives here, the ground floor: the node's client and the start-time checks that ask it are the
 * settlement feature's (server/features/settlement/chain-config.ts).
 */

/**
 * What signs the hot wallet's payouts. The built-in one holds a private key from PAYOUT_KEY / PAYOUT_KEY_FILE;
 * a KMS or HSM signer implements the same two members. It never appears in logs: it prints as its address.
 */
export interface Signer {
  readonly address: Address;
  signTransaction(tx: TransactionSerializable): Promise<Hex>;
}

export function localKeySigner(privateKey: Hex): Signer {
  const account = privateKeyToAccount(privateKey);
  const shown = { signer: "local key", address: account.address };
  return {
    address: account.address,
    signTransaction: (tx) => account.signTransaction(tx),
    toJSON: () => shown,
    [inspect.custom]: () => shown,
  } as Signer;
}

/** Chain settlement's settings; absent (manual settlement) when CHAIN_RPC_URL is unset. */
export interface ChainConfig {
  rpcUrl: string;
  chainId: number;
  usdcContract: Address;
  signer: Signer;
  /** Watch-only extended public key of the deposit branch; address i is its non-hardened child i. */
  depositXpub: string;
  /**
   * Blocks a transaction's block must have, counting its own block (CHAIN_CONFIRMATIONS): 1 = mined, 3 = its block
   * and two on top. A reorg that replaces that many blocks can still undo it (decision 056).
   */
  confirmations: number;
  /**
   * Deposits above this many cents also wait until their block is `finalized` where the node answers that tag
   * (CHAIN_FINALIZED_ABOVE, in dollars); null: every deposit waits for the confirmations only.
   */
  finalizedAboveCents: number | null;
  explorerUrl?: string;
  /** Payouts at or below this (cents) may go without a person; 0: every payout waits for staff. */
  payoutAutoLimitCents: number;
  /** A sent payout not mined after this long is broadcast again, the same signed bytes (PAYOUT_REBROADCAST_AFTER). */
  payoutRebroadcastAfterMs: number;
  /** Still not mined this long after its last signing: a replacement at the same nonce, higher fee (PAYOUT_REPLACE_AFTER). */
  payoutReplaceAfterMs: number;
  /** The first block reconciliation reads (CHAIN_RECONCILE_FROM_BLOCK): the hot wallet's balance before it is the opening balance. */
  reconcileFromBlock: number;
  /**
   * Blocks below the final one that every reconciliation reads again (CHAIN_REORG_WINDOW, decision 057): deeper
   * than any reorg the chain allows, so a credited deposit or a payout a deep reorg took away is found.
   */
  reorgWindow: number;
  /**
   * Lower-case addresses whose USDC into the hot wallet is Pillar's own funding (HOT_WALLET_FUNDING_ADDRESSES:
   * the treasury, the zero address when Circle Mint mints to the hot wallet); any other sender is an unknown inflow.
   */
  hotWalletFundingAddresses: string[];
  /** The Settlement tab warns below these (HOT_WALLET_LOW_USDC in dollars, HOT_WALLET_LOW_GAS in ether). */
  hotWalletLowUsdcCents: number;
  /** Wei as a decimal string: the config stays JSON (a bigint would not serialise). */
  hotWalletLowGasWei: string;
  /**
   * CHAIN_MAX_FEE_GWEI in wei (a decimal string): no payout is signed, re-signed or replaced at a max fee per gas
   * above it; payouts pause with an alert until the market falls (decision 058). null: no ceiling.
   */
  maxFeePerGasWei: string | null;
  /** Sweeps, the hot wallet's ceiling and cold wallet (decision 060; treasury-config.ts). */
  treasury: TreasuryConfig;
}

type Env = Record<string, string | undefined>;
const value = (env: Env, name: string) => {
  const v = env[name]?.trim();
  return v === "" ? undefined : v;
};

/** The deposit branch's key, or a message naming DEPOSIT_XPUB. Never accepts a private key. */
export function parseDepositXpub(xpub: string): HDKey | string {
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub);
  } catch {
    return "DEPOSIT_XPUB must be an extended public key (xpub…); this one does not parse";
  }
  if (key.privateKey) {
    return "DEPOSIT_XPUB must be a watch-only extended public key (xpub…), not a private one: the server never holds deposit keys";
  }
  return key;
}

function readPayoutKey(env: Env): { key?: Hex; problem?: string } {
  const inline = value(env, "PAYOUT_KEY");
  const file = value(env, "PAYOUT_KEY_FILE");
  if (inline && file) return { problem: "PAYOUT_KEY and PAYOUT_KEY_FILE: set one of them, not both" };
  let raw = inline;
  const name = file ? "PAYOUT_KEY_FILE" : "PAYOUT_KEY";
  if (file) {
    try {
      raw = fs.readFileSync(file, "utf8").trim();
    } catch (err) {
      return { problem: `PAYOUT_KEY_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code})` };
    }
  }
  if (!raw) return { problem: "PAYOUT_KEY (or PAYOUT_KEY_FILE) is required when CHAIN_RPC_URL is set" };
  const hex = (raw.startsWith("0x") ? raw : `0x${raw}`) as Hex;
  // The value is never echoed: a key pasted into the wrong variable must not reach a log.
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) return { problem: `${name} must be a 32-byte hex private key` };
  try {
    privateKeyToAccount(hex);
  } catch {
    return { problem: `${name} is not a valid secp256k1 private key` };
  }
  return { key: hex };
}

/**
 * Reads the chain variables. Unset CHAIN_RPC_URL → no chain (manual settlement) and the other variables are
 * ignored. Each problem names its variable; the caller stops the server with all of them.
 */
export function parseChainConfig(env: Env): { chain?: ChainConfig; problems: string[] } {
  const rpcUrl = value(env, "CHAIN_RPC_URL");
  if (!rpcUrl) return { problems: [] };
  const problems: string[] = [];
  if (!/^(https?|wss?):\/\//.test(rpcUrl))
    problems.push("CHAIN_RPC_URL must start with http(s):// or ws(s)://");

  const chainIdText = value(env, "CHAIN_ID");
  const chainId = Number(chainIdText);
  if (!chainIdText) problems.push("CHAIN_ID is required when CHAIN_RPC_URL is set");
  else if (!/^\d+$/.test(chainIdText) || !Number.isSafeInteger(chainId) || chainId < 1)
    problems.push("CHAIN_ID must be a positive whole number (the chain's EIP-155 id)");

  const contract = value(env, "USDC_CONTRACT");
  if (!contract) problems.push("USDC_CONTRACT is required when CHAIN_RPC_URL is set");
  else if (!isAddress(contract, { strict: false })) problems.push("USDC_CONTRACT must be a 0x address");

  const payout = readPayoutKey(env);
  if (payout.problem) problems.push(payout.problem);

  const xpub = value(env, "DEPOSIT_XPUB");
  if (!xpub) problems.push("DEPOSIT_XPUB is required when CHAIN_RPC_URL is set");
  else {
    const parsed = parseDepositXpub(xpub);
    if (typeof parsed === "string") problems.push(parsed);
  }

  const confirmationsText = value(env, "CHAIN_CONFIRMATIONS") ?? "12";
  const confirmations = Number(confirmationsText);
  if (!/^\d+$/.test(confirmationsText) || confirmations < 1 || confirmations > 10_000)
    problems.push(
      "CHAIN_CONFIRMATIONS must be a whole number from 1 to 10000 (blocks counting the transaction's own: 1 = mined)",
    );

  const finalizedText = value(env, "CHAIN_FINALIZED_ABOVE");
  const finalizedAbove = finalizedText === undefined ? null : parseMoney(finalizedText);
  if (finalizedText !== undefined && (finalizedAbove === null || finalizedAbove < 0))
    problems.push(
      "CHAIN_FINALIZED_ABOVE must be a dollar amount like 10000 or 2500.00 (deposits above it wait for a finalized block), or unset",
    );

  const explorerUrl = value(env, "CHAIN_EXPLORER_URL");
  if (explorerUrl && !/^https?:\/\//.test(explorerUrl))
    problems.push("CHAIN_EXPLORER_URL must start with http:// or https://");

  const limitText = value(env, "PAYOUT_AUTO_LIMIT") ?? "0";
  const limit = parseMoney(limitText);
  if (limit === null || limit < 0)
    problems.push(
      "PAYOUT_AUTO_LIMIT must be a dollar amount like 0 or 250.00 (at most 2 decimals, not negative)",
    );

  const seconds = (name: string, fallback: string) => {
    const text = value(env, name) ?? fallback;
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 86_400) {
      problems.push(`${name} must be a whole number of seconds from 1 to 86400`);
      return 0;
    }
    return Number(text) * 1000;
  };
  const rebroadcastMs = seconds("PAYOUT_REBROADCAST_AFTER", "60");
  const replaceMs = seconds("PAYOUT_REPLACE_AFTER", "300");

  const fromText = value(env, "CHAIN_RECONCILE_FROM_BLOCK") ?? "0";
  if (!/^\d+$/.test(fromText) || !Number.isSafeInteger(Number(fromText)))
    problems.push("CHAIN_RECONCILE_FROM_BLOCK must be a block number (a whole number, 0 or more)");

  // Twice the confirmations and at least 256 blocks (under an hour on Ethereum, minutes on Base): a reorg past
  // the confirmations is rare, one past this window would be unheard of; each run reads it again, cheaply.
  const confirmationsOk = Number.isSafeInteger(confirmations) && confirmations >= 1;
  const windowText = value(env, "CHAIN_REORG_WINDOW");
  const reorgWindow = windowText
    ? Number(windowText)
    : Math.max(256, 2 * (confirmationsOk ? confirmations : 12));
  if (
    windowText &&
    (!/^\d+$/.test(windowText) ||
      reorgWindow > 1_000_000 ||
      reorgWindow < (confirmationsOk ? confirmations : 1))
  )
    problems.push(
      "CHAIN_REORG_WINDOW must be a whole number of blocks, at least CHAIN_CONFIRMATIONS and at most 1000000",
    );

  const fundingText = value(env, "HOT_WALLET_FUNDING_ADDRESSES") ?? "";
  const funding = fundingText
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");
  if (funding.some((a) => !isAddress(a, { strict: false })))
    problems.push("HOT_WALLET_FUNDING_ADDRESSES must be a comma-separated list of 0x addresses");

  const lowUsdc = parseMoney(value(env, "HOT_WALLET_LOW_USDC") ?? "1000.00");
  if (lowUsdc === null || lowUsdc < 0)
    problems.push("HOT_WALLET_LOW_USDC must be a dollar amount like 1000 or 250.00 (not negative)");
  const lowGasText = value(env, "HOT_WALLET_LOW_GAS") ?? "0.05";
  let lowGasWei = 0n;
  if (!/^\d{1,9}(\.\d{1,18})?$/.test(lowGasText))
    problems.push(
      "HOT_WALLET_LOW_GAS must be an amount of the chain's native coin like 0.05 (at most 18 decimals)",
    );
  else lowGasWei = parseEther(lowGasText);

  const ceilingText = value(env, "CHAIN_MAX_FEE_GWEI");
  let ceilingWei: bigint | null = null;
  if (ceilingText !== undefined) {
    if (!/^\d{1,7}(\.\d{1,9})?$/.test(ceilingText) || parseGwei(ceilingText) === 0n)
      problems.push(
        "CHAIN_MAX_FEE_GWEI must be a fee per gas in gwei above 0, like 150 or 0.5 (at most 9 decimals), or unset for no ceiling",
      );
    else ceilingWei = parseGwei(ceilingText);
  }
  const treasury = parseTreasuryConfig(env, { usdcContract: contract });
  problems.push(...treasury.problems);

  if (problems.length > 0) return { problems };
  return {
    problems,
    chain: {
      rpcUrl,
      chainId,
      usdcContract: getAddress(contract!),
      signer: localKeySigner(payout.key!),
      depositXpub: xpub!,
      confirmations,
      finalizedAboveCents: finalizedAbove,
      explorerUrl: explorerUrl?.replace(/\/+$/, ""),
      payoutAutoLimitCents: limit!,
      payoutRebroadcastAfterMs: rebroadcastMs,
      payoutReplaceAfterMs: replaceMs,
      reconcileFromBlock: Number(fromText),
      reorgWindow,
      hotWalletFundingAddresses: [...new Set(funding.map((a) => a.toLowerCase()))],
      hotWalletLowUsdcCents: lowUsdc!,
      hotWalletLowGasWei: lowGasWei.toString(),
      maxFeePerGasWei: ceilingWei === null ? null : ceilingWei.toString(),
      treasury: treasury.treasury,
    },
  };
}
