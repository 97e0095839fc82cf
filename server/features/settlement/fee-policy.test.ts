import { HDKey } from "@scure/bip32";
import { parseGwei } from "viem";
import { describe, expect, it } from "vitest";
import {
  gwei,
  isFeeTooLow,
  type Market,
  marketMovedPast,
  priceTransaction,
  SPEED_UP_BUMP_PERCENT,
} from "@/server/features/settlement/fee-policy";
import { classifyNonces } from "@/server/features/settlement/hot-wallet-status";
import { parseChainConfig } from "@/server/lib/chain-config";

// A steady market: base fee 50 gwei, tip 1 gwei, viem's estimate 1.2 × 50 + 1 = 61 gwei (decision 058).
const g = (n: string) => parseGwei(n);
const steady: Market = { baseFeePerGas: g("50"), maxFeePerGas: g("61"), maxPriorityFeePerGas: g("1") };
const signed = { maxFeePerGas: g("61"), maxPriorityFeePerGas: g("1") };

describe("fee policy", () => {
  it("signs at the market's fee, and never replaces in a flat market however long the payout waits", () => {
    expect(priceTransaction(steady, null)).toEqual({ fees: signed });
    // 61 → 76 → 95 → 119 gwei was the old ladder at a steady 50 gwei: now nothing moves.
    for (let i = 0; i < 4; i += 1) expect(marketMovedPast(signed, steady, null)).toBe(false);
  });

  it("replaces when the market moved past the signed fee, at the market or the least a node takes", () => {
    const risen: Market = { baseFeePerGas: g("80"), maxFeePerGas: g("97"), maxPriorityFeePerGas: g("1") };
    expect(marketMovedPast(signed, risen, null)).toBe(true);
    const priced = priceTransaction(risen, null, signed);
    // Fee: the market's 97 gwei; tip: 10% above the last (a node refuses a replacement without it).
    expect(priced).toEqual({ fees: { maxFeePerGas: g("97"), maxPriorityFeePerGas: g("1.1") + 1n } });
    const tipped: Market = { ...steady, maxPriorityFeePerGas: g("2") };
    expect(marketMovedPast(signed, tipped, null)).toBe(true);
  });

  it("caps the fee at the ceiling while the chain takes it, and pauses when it asks more", () => {
    const ceiling = g("70");
    const high: Market = { baseFeePerGas: g("65"), maxFeePerGas: g("79"), maxPriorityFeePerGas: g("1") };
    expect(priceTransaction(high, ceiling)).toEqual({
      fees: { maxFeePerGas: ceiling, maxPriorityFeePerGas: g("1") },
    });
    const spike: Market = { baseFeePerGas: g("100"), maxFeePerGas: g("121"), maxPriorityFeePerGas: g("1") };
    expect(priceTransaction(spike, ceiling)).toEqual({ paused: { askedWei: g("101"), ceilingWei: ceiling } });
    // At the ceiling already, a market above it is not "moved past" it: the same bytes go again.
    expect(marketMovedPast({ maxFeePerGas: ceiling, maxPriorityFeePerGas: g("1") }, spike, ceiling)).toBe(
      false,
    );
    // A replacement whose least bump passes the ceiling pauses too.
    expect("paused" in priceTransaction(steady, g("65"), signed)).toBe(true);
    // Staff's Speed up pays 25% more, within the ceiling.
    expect(priceTransaction(steady, g("100"), signed, SPEED_UP_BUMP_PERCENT)).toEqual({
      fees: { maxFeePerGas: g("76.25") + 1n, maxPriorityFeePerGas: g("1.25") + 1n },
    });
  });

  it("knows a node's refusal for the fee from other refusals", () => {
    expect(isFeeTooLow(new Error("max fee per gas less than block base fee"))).toBe(true);
    expect(isFeeTooLow(new Error("transaction underpriced"))).toBe(true);
    expect(isFeeTooLow(new Error("nonce too low"))).toBe(false);
    expect(isFeeTooLow(new Error("insufficient funds for gas * price + value"))).toBe(false);
    expect(gwei(g("61.25"))).toBe("61.25 gwei");
  });
});

describe("CHAIN_MAX_FEE_GWEI", () => {
  const env = {
    CHAIN_RPC_URL: "http://127.0.0.1:8545",
    CHAIN_ID: "31337",
    USDC_CONTRACT: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    PAYOUT_KEY: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    DEPOSIT_XPUB: HDKey.fromMasterSeed(new Uint8Array(32).fill(7)).derive("m/44'/60'/0'/0").publicExtendedKey,
  };
  it("is unset by default (no ceiling), read in gwei, and refused with the variable's name when bad", () => {
    expect(parseChainConfig(env).chain?.maxFeePerGasWei).toBeNull();
    expect(parseChainConfig({ ...env, CHAIN_MAX_FEE_GWEI: "150" }).chain?.maxFeePerGasWei).toBe(
      g("150").toString(),
    );
    expect(parseChainConfig({ ...env, CHAIN_MAX_FEE_GWEI: "0.05" }).chain?.maxFeePerGasWei).toBe("50000000");
    for (const bad of ["0", "-1", "abc", "1e3", "0.0000000001"]) {
      expect(parseChainConfig({ ...env, CHAIN_MAX_FEE_GWEI: bad }).problems).toEqual([
        expect.stringContaining("CHAIN_MAX_FEE_GWEI"),
      ]);
    }
  });
});

describe("hot wallet nonces", () => {
  const open = (...nonces: number[]) => nonces.map((nonce) => ({ nonce, usedOutside: false }));
  it("are healthy while every nonce from the mined count up is held by an open payout", () => {
    expect(classifyNonces({ latest: 5, pending: 8, handedOut: 8, open: open(5, 6, 7) })).toBeNull();
    // A payout the node refused still holds its nonce: the worker sends it again, it is no gap.
    expect(classifyNonces({ latest: 5, pending: 5, handedOut: 8, open: open(5, 6, 7) })).toBeNull();
  });
  it("show a gap: a nonce below open payouts that none of Pillar's transactions holds", () => {
    expect(classifyNonces({ latest: 5, pending: 5, handedOut: 8, open: open(6, 7) })).toEqual({
      kind: "gap",
      nonce: 5,
    });
  });
  it("show a nonce used outside Pillar: a payout's nonce mined by another, or nonces Pillar never handed out", () => {
    expect(
      classifyNonces({ latest: 6, pending: 6, handedOut: 6, open: [{ nonce: 5, usedOutside: true }] }),
    ).toEqual({ kind: "used_outside", nonce: 5 });
    expect(classifyNonces({ latest: 7, pending: 7, handedOut: 6, open: [] })).toEqual({
      kind: "used_outside",
      nonce: 6,
    });
    // Before Pillar signed anything, the key's past is not an alert.
    expect(classifyNonces({ latest: 7, pending: 7, handedOut: null, open: [] })).toBeNull();
  });
});
