import { describe, expect, it } from "vitest";
import { TRANSFER_MESSAGES } from "@/contract/transfers";
import { readAmount } from "@/web/lib/read-amount";

describe("a money field's text, read as typed", () => {
  it("refuses a minus sign with the spec's message instead of dropping it", () => {
    expect(readAmount("-5")).toEqual({ cents: null, error: "Amount must be greater than $0" });
    expect(readAmount("-$5.00")).toEqual({ cents: null, error: TRANSFER_MESSAGES.amountPositive });
    expect(readAmount("0.00")).toEqual({ cents: null, error: TRANSFER_MESSAGES.amountPositive });
  });

  it("refuses exponents, a third decimal and stray characters instead of keeping the digits", () => {
    for (const text of ["1e3", "1E3", "1,000.001", "12.345", "1 000", "5 USD", "5.", "-", "$", "1,00"]) {
      expect(readAmount(text), text).toEqual({ cents: null, error: TRANSFER_MESSAGES.amountInvalid });
    }
  });

  it("reads dollars with a sign, separators and surrounding spaces exactly, to the cent", () => {
    expect(readAmount("1,000.00")).toEqual({ cents: 100_000, error: null });
    expect(readAmount("  12.5 ")).toEqual({ cents: 1_250, error: null });
    expect(readAmount("$0.01")).toEqual({ cents: 1, error: null });
    expect(readAmount(".75")).toEqual({ cents: 75, error: null });
  });

  it("says nothing about an empty field: whether it is required is the form's to say", () => {
    expect(readAmount("")).toEqual({ cents: null, error: null });
    expect(readAmount("   ")).toEqual({ cents: null, error: null });
  });
});
