import { describe, expect, it } from "vitest";
import { compilePillarUsd } from "@/scripts/chain-build.mjs";
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
