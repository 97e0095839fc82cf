import { describe, expect, it } from "vitest";
import type { RiskSignals } from "@/contract/approvals";
import { riskChips } from "@/web/features/approvals/admin/approvals-tab";

const quiet: RiskSignals = {
  accountAgeDays: 400,
  newDevices7d: 0,
  firstTimeAddresses7d: 0,
  largestCreditCents: null,
  averageCreditCents: null,
  creditCount: 0,
  amountVsLargest: null,
  frozen: false,
  kycRejected: false,
};
const labels = (amountCents: number, risk: Partial<RiskSignals>) =>
  riskChips("credit", amountCents, { ...quiet, ...risk }).map((chip) => chip.label);

// The queue once read "0× largest past credit".
describe("the Approvals tab's credit-history chip", () => {
  it("says first credit when there is no past credit, never 0×", () => {
    expect(labels(500_000, {})).toContain("First credit ever");
    expect(labels(500_000, { creditCount: 2, largestCreditCents: 0, amountVsLargest: 0 })).toContain(
      "First credit ever",
    );
    expect(labels(500_000, { creditCount: 2, largestCreditCents: 0 }).join()).not.toMatch(/0×/);
  });

  it("compares with the largest past credit, a tiny ratio as 'Under 0.1×'", () => {
    expect(labels(150_000, { creditCount: 1, largestCreditCents: 50_000, amountVsLargest: 3 })).toContain(
      "3× largest past credit ($500.00)",
    );
    expect(labels(1_000, { creditCount: 1, largestCreditCents: 5_000_000, amountVsLargest: 0 })).toContain(
      "Under 0.1× largest past credit ($50,000.00)",
    );
  });
});
