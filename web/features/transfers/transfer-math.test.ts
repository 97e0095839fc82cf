import { describe, expect, it } from "vitest";
import { feeFor } from "@/contract/transfers";
import { grossForNet, netFor } from "@/web/features/transfers/transfer-math";

describe("transfer amount and net", () => {
  it("takes the 2% fee off the amount", () => {
    expect(netFor(10_000)).toBe(9_800);
    expect(netFor(100)).toBe(98);
  });

  it("finds the amount that gives a net, for every net up to $50", () => {
    for (let net = 1; net <= 5_000; net++) {
      const gross = grossForNet(net);
      expect(gross - feeFor(gross)).toBeGreaterThanOrEqual(net);
      expect(gross - 1 - feeFor(gross - 1)).toBeLessThan(net);
    }
  });

  it("round-trips a whole-dollar net", () => {
    expect(grossForNet(9_800)).toBe(10_000);
  });
});
