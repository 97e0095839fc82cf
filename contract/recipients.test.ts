import { describe, expect, it } from "vitest";
import { addressCore, isLookalikeAddress, isSameAddress } from "@/contract/recipients";

const SAVED = "0x52908400098527886E0F7030069857D2E4169EE7";

describe("lookalike addresses", () => {
  it("flags another address with the same first 4 (after 0x) and last 4 characters, in any case", () => {
    expect(isLookalikeAddress(`0x5290${"f".repeat(32)}9ee7`, SAVED)).toBe(true);
    expect(isLookalikeAddress(`0X5290${"F".repeat(32)}9EE7`.replace("0X", "0x"), SAVED)).toBe(true);
  });

  it("does not flag the same address, or one differing at either end", () => {
    expect(isLookalikeAddress(SAVED.toLowerCase(), SAVED)).toBe(false);
    expect(isLookalikeAddress(`0x5291${"f".repeat(32)}9ee7`, SAVED)).toBe(false);
    expect(isLookalikeAddress(`0x5290${"f".repeat(32)}9ee8`, SAVED)).toBe(false);
    // "0x52" alone is not a match: the 0x every Ethereum address shares is not counted.
    expect(isLookalikeAddress(`0x52aa${"f".repeat(32)}9ee7`, SAVED)).toBe(false);
  });

  it("compares Solana addresses from their first character", () => {
    const sol = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    expect(isLookalikeAddress("7EcDaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaFLtV", sol)).toBe(true);
    expect(addressCore(sol)).toBe(sol.toLowerCase());
  });

  it("treats an address in another case as the same one", () => {
    expect(isSameAddress(` ${SAVED.toLowerCase()} `, SAVED)).toBe(true);
  });
});
