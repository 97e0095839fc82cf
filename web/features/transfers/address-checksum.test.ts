import { randomBytes } from "node:crypto";
import { getAddress, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { hasWrongChecksum, keccak256Hex, toChecksumAddress } from "@/web/features/transfers/address-checksum";

describe("EIP-55 in the browser", () => {
  it("hashes as Ethereum's Keccak-256 does, across the rate's block boundary", () => {
    expect(keccak256Hex(new Uint8Array())).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    );
    for (const length of [1, 40, 135, 136, 137, 300]) {
      const bytes = new Uint8Array(randomBytes(length));
      expect(`0x${keccak256Hex(bytes)}`).toBe(keccak256(bytes));
    }
  });

  it("writes every address as the server's checksum (viem) does", () => {
    expect(toChecksumAddress("0x52908400098527886e0f7030069857d2e4169ee7")).toBe(
      "0x52908400098527886E0F7030069857D2E4169EE7",
    );
    for (let i = 0; i < 200; i++) {
      const lower = `0x${randomBytes(20).toString("hex")}`;
      expect(toChecksumAddress(lower)).toBe(getAddress(lower));
    }
  });

  it("names a mistyped capital, and leaves checksummed and small-letter addresses alone", () => {
    const good = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
    expect(hasWrongChecksum(good)).toBe(false);
    expect(hasWrongChecksum("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")).toBe(true);
    expect(hasWrongChecksum("0x52908400098527886E0F7030069857D2E4169EE7")).toBe(false);
    expect(hasWrongChecksum("0x52908400098527886E0F7030069857D2E4169Ee7")).toBe(true);
    expect(hasWrongChecksum(good.toLowerCase())).toBe(false);
    expect(hasWrongChecksum("7EcDhSYGxXzscSzqhg7a9m9n3LyXK7kMDFDzfdwQpPth")).toBe(false);
  });
});
