import { describe, expect, it } from "vitest";
import { compileDepositForwarders, compilePillarUsd } from "@/scripts/chain-build.mjs";
import {
  depositForwarderBytecode,
  depositForwarderFactoryAbi,
  depositForwarderFactoryBytecode,
} from "@/server/features/settlement/contracts/deposit-forwarders.artifact";
import { pillarUsdAbi, pillarUsdBytecode } from "@/server/features/settlement/contracts/pillar-usd.artifact";

describe("the committed PillarUSD artifact", () => {
  it("is what compiling PillarUSD.sol with the pinned solc and OpenZeppelin gives, byte for byte", () => {
    const built = compilePillarUsd();
    expect(built.bytecode).toBe(pillarUsdBytecode);
    expect(built.abi).toEqual(pillarUsdAbi);
    const names = built.abi.map((item) => (item as { name?: string }).name);
    for (const fn of [
      "decimals",
      "mint",
      "blacklist",
      "unBlacklist",
      "isBlacklisted",
      "pause",
      "unpause",
      "transfer",
    ])
      expect(names).toContain(fn);
  }, 60_000);
});

describe("the committed deposit forwarders artifact (decision 060)", () => {
  it("is what compiling DepositForwarders.sol gives, byte for byte, the forwarder's creation code included", () => {
    const built = compileDepositForwarders();
    expect(built.bytecode).toBe(depositForwarderFactoryBytecode);
    expect(built.forwarderBytecode).toBe(depositForwarderBytecode);
    expect(built.abi).toEqual(depositForwarderFactoryAbi);
    const names = built.abi.map((item) => (item as { name?: string }).name);
    for (const fn of ["sweep", "addressOf", "owner", "token", "changeOwner", "Swept"])
      expect(names).toContain(fn);
  }, 60_000);
});
