import { describe, expect, it } from "vitest";
import { creditFieldErrors } from "@/web/features/credits/admin/credit-field-errors";

const EMPTY = { userId: "", amount: "", description: "", reason: "" };
const USER = "6f1f8a52-3c2a-4e1b-9f00-123456789abc";

describe("credit field errors", () => {
  it("names every empty required field of a credit transaction", () => {
    expect(creditFieldErrors(EMPTY, { kind: "transaction", needsReason: false })).toEqual({
      userId: "Select a customer",
      amount: "Enter an amount",
      description: "Enter a description",
    });
  });

  it("lets an incoming payment leave its description blank (the server applies the default)", () => {
    expect(creditFieldErrors(EMPTY, { kind: "incomingPayment", needsReason: false })).toEqual({
      userId: "Select a customer",
      amount: "Enter an amount",
    });
  });

  it("refuses an amount that is not a positive dollar amount, and asks for the reason above the threshold", () => {
    const draft = { userId: USER, amount: "12.345", description: "Payroll", reason: " " };
    expect(creditFieldErrors(draft, { kind: "transaction", needsReason: true })).toEqual({
      amount: "Amount must be a positive dollar amount with at most 2 decimals",
      reason: "Please give a reason: a second staff member reviews this change",
    });
    expect(
      creditFieldErrors({ ...draft, amount: "0" }, { kind: "incomingPayment", needsReason: false }),
    ).toEqual({
      amount: "Amount must be a positive dollar amount with at most 2 decimals",
    });
  });

  it("finds nothing wrong with a complete credit", () => {
    const draft = { userId: USER, amount: "1500.00", description: "Payroll", reason: "Wire confirmed" };
    expect(creditFieldErrors(draft, { kind: "transaction", needsReason: true })).toEqual({});
  });
});
