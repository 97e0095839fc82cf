import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { describe, expect, it } from "vitest";
import { depositAddressAt } from "@/server/features/settlement/deposit-addresses";
import { splitUnits } from "@/server/features/settlement/deposit-watcher";
import { parseChainConfig } from "@/server/lib/chain-config";

// anvil's published development mnemonic: its account 0 is m/44'/60'/0'/0/0.
const seed = mnemonicToSeedSync("test test test test test test test test test test test junk");
const branch = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0");
const xpub = branch.publicExtendedKey;
const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const good = {
  CHAIN_RPC_URL: "http://127.0.0.1:8545",
  CHAIN_ID: "31337",
  USDC_CONTRACT: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  PAYOUT_KEY: KEY,
  DEPOSIT_XPUB: xpub,
};
const problems = (over: Record<string, string | undefined>) =>
  parseChainConfig({ ...good, ...over }).problems;

describe("deposit addresses", () => {
  it("are the xpub's children, the same addresses a wallet holding the seed shows", () => {
    expect(depositAddressAt(xpub, 0)).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(depositAddressAt(xpub, 1)).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(depositAddressAt(xpub, 2)).toBe("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
  });
});

describe("USDC units to cents", () => {
  it("credits whole cents and keeps the rest as dust", () => {
    expect(splitUnits(12_345_678n)).toEqual({ cents: 1234n, dust: 5678 });
    expect(splitUnits(9_999n)).toEqual({ cents: 0n, dust: 9999 });
    expect(splitUnits(10_000n)).toEqual({ cents: 1n, dust: 0 });
    expect(splitUnits(0n)).toEqual({ cents: 0n, dust: 0 });
  });
});

describe("chain settings", () => {
  it("are off without CHAIN_RPC_URL, whatever else is set", () => {
    expect(parseChainConfig({ ...good, CHAIN_RPC_URL: "" })).toEqual({ problems: [] });
    expect(parseChainConfig({ CHAIN_ID: "nope" })).toEqual({ problems: [] });
  });

  it("reads good values, with the defaults, and never shows the key", () => {
    const { chain, problems: found } = parseChainConfig(good);
    expect(found).toEqual([]);
    expect(chain).toMatchObject({
      chainId: 31337,
      usdcContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      confirmations: 12,
      payoutAutoLimitCents: 0,
      payoutRebroadcastAfterMs: 60_000,
      payoutReplaceAfterMs: 300_000,
      reorgWindow: 256,
      hotWalletFundingAddresses: [],
      finalizedAboveCents: null,
    });
    // The window re-read by every reconciliation is deeper than the confirmations (decision 057).
    expect(parseChainConfig({ ...good, CHAIN_CONFIRMATIONS: "200" }).chain?.reorgWindow).toBe(400);
    expect(
      parseChainConfig({
        ...good,
        CHAIN_REORG_WINDOW: "64",
        HOT_WALLET_FUNDING_ADDRESSES:
          " 0x5FbDB2315678afecb367f032d93F642f64180aa3, 0x0000000000000000000000000000000000000000",
      }).chain,
    ).toMatchObject({
      reorgWindow: 64,
      hotWalletFundingAddresses: [
        "0x5fbdb2315678afecb367f032d93f642f64180aa3",
        "0x0000000000000000000000000000000000000000",
      ],
    });
    expect(parseChainConfig({ ...good, CHAIN_FINALIZED_ABOVE: "10000" }).chain?.finalizedAboveCents).toBe(
      1_000_000,
    );
    expect(
      parseChainConfig({ ...good, PAYOUT_REBROADCAST_AFTER: "5", PAYOUT_REPLACE_AFTER: "30" }).chain,
    ).toMatchObject({ payoutRebroadcastAfterMs: 5_000, payoutReplaceAfterMs: 30_000 });
    expect(chain!.signer.address).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(JSON.stringify(chain)).not.toContain(KEY.slice(2));
    expect(parseChainConfig({ ...good, PAYOUT_AUTO_LIMIT: "$250.00" }).chain?.payoutAutoLimitCents).toBe(
      25_000,
    );
  });

  it("names the variable of every bad value", () => {
    expect(problems({ CHAIN_RPC_URL: "ftp://x" })).toEqual([
      "CHAIN_RPC_URL must start with http(s):// or ws(s)://",
    ]);
    expect(problems({ CHAIN_ID: undefined })).toEqual(["CHAIN_ID is required when CHAIN_RPC_URL is set"]);
    expect(problems({ CHAIN_FINALIZED_ABOVE: "-1" })[0]).toMatch(
      /^CHAIN_FINALIZED_ABOVE must be a dollar amount/,
    );
    expect(problems({ CHAIN_CONFIRMATIONS: "0" })[0]).toMatch(/counting the transaction's own/);
    expect(problems({ CHAIN_ID: "1.5" })[0]).toMatch(/^CHAIN_ID must be a positive whole number/);
    expect(problems({ USDC_CONTRACT: "0x12" })).toEqual(["USDC_CONTRACT must be a 0x address"]);
    expect(problems({ PAYOUT_KEY: undefined })[0]).toMatch(/^PAYOUT_KEY \(or PAYOUT_KEY_FILE\) is required/);
    expect(problems({ PAYOUT_KEY: "0xabc" })).toEqual(["PAYOUT_KEY must be a 32-byte hex private key"]);
    expect(problems({ PAYOUT_KEY: `0x${"0".repeat(64)}` })).toEqual([
      "PAYOUT_KEY is not a valid secp256k1 private key",
    ]);
    expect(problems({ PAYOUT_KEY_FILE: "/nonexistent" })[0]).toMatch(/^PAYOUT_KEY and PAYOUT_KEY_FILE/);
    expect(problems({ DEPOSIT_XPUB: "xpubnonsense" })[0]).toMatch(
      /^DEPOSIT_XPUB must be an extended public key/,
    );
    expect(problems({ DEPOSIT_XPUB: branch.privateExtendedKey })[0]).toMatch(/not a private one/);
    expect(problems({ CHAIN_CONFIRMATIONS: "0" })[0]).toMatch(/^CHAIN_CONFIRMATIONS must be/);
    expect(problems({ CHAIN_EXPLORER_URL: "basescan.org" })[0]).toMatch(/^CHAIN_EXPLORER_URL must start/);
    expect(problems({ PAYOUT_AUTO_LIMIT: "1.234" })[0]).toMatch(/^PAYOUT_AUTO_LIMIT must be/);
    expect(problems({ PAYOUT_REBROADCAST_AFTER: "0" })).toEqual([
      "PAYOUT_REBROADCAST_AFTER must be a whole number of seconds from 1 to 86400",
    ]);
    expect(problems({ PAYOUT_REPLACE_AFTER: "5m" })).toEqual([
      "PAYOUT_REPLACE_AFTER must be a whole number of seconds from 1 to 86400",
    ]);
    for (const window of ["11", "abc", "1000001"]) {
      expect(problems({ CHAIN_REORG_WINDOW: window })).toEqual([
        "CHAIN_REORG_WINDOW must be a whole number of blocks, at least CHAIN_CONFIRMATIONS and at most 1000000",
      ]);
    }
    expect(problems({ HOT_WALLET_FUNDING_ADDRESSES: "0x12,treasury" })).toEqual([
      "HOT_WALLET_FUNDING_ADDRESSES must be a comma-separated list of 0x addresses",
    ]);
    // A wrong key's value never reaches the message.
    expect(problems({ PAYOUT_KEY: `${KEY}ff` }).join(" ")).not.toContain(KEY.slice(2, 20));
  });
});
