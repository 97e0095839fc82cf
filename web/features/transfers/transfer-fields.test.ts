import { describe, expect, it } from "vitest";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { EMPTY_FIELDS, type Fields, firstProblem } from "@/web/features/transfers/transfer-fields";

const FILLED: Fields = {
  ...EMPTY_FIELDS,
  amount: "10.00",
  recipientName: "Ada",
  purpose: "Dinner",
  cryptoAddress: `0x${"a".repeat(40)}`,
};

describe("the send-money form's first refusal", () => {
  it("names every missing field in the toast and marks each one required", () => {
    const problem = firstProblem(EMPTY_FIELDS, null, 10_000);
    expect(problem?.title).toBe("Missing Information");
    expect(problem?.description).toBe(
      "Please fill in: Amount, Recipient Name, Transfer Purpose, USDC Wallet Address",
    );
    expect(Object.keys(problem?.errors ?? {})).toEqual([
      "amount",
      "recipientName",
      "purpose",
      "cryptoAddress",
    ]);
  });

  it("refuses an amount that is not positive, then an address that is not USDC", () => {
    expect(firstProblem(FILLED, 0, 10_000)?.errors.amount).toBe(TRANSFER_MESSAGES.amountPositive);
    const badAddress = firstProblem({ ...FILLED, cryptoAddress: "not-an-address" }, 1_000, 10_000);
    expect(badAddress?.errors.cryptoAddress).toBe(TRANSFER_MESSAGES.addressInvalid);
  });

  it("refuses more than the available balance and lets a valid transfer through to review", () => {
    expect(firstProblem(FILLED, 1_001, 1_000)?.title).toBe("Insufficient Funds");
    expect(firstProblem(FILLED, 1_000, 1_000)).toBeNull();
  });
});
