import { describe, expect, it } from "vitest";
import { centsToDecimal, formatMoney, MAX_CENTS, parseMoney } from "@/contract/money";

describe("parseMoney", () => {
  it.each([
    ["$1,000.00", 100_000],
    ["1000", 100_000],
    ["12.5", 1250],
    ["0.01", 1],
    [".5", 50],
    ["$ 7", 700],
    ["-$3.10", -310],
    ["1,234,567.89", 123_456_789],
    [25.75, 2575],
    [0, 0],
  ])("reads %s as %i cents", (input, cents) => {
    expect(parseMoney(input)).toBe(cents);
  });

  it.each([
    ["", "empty"],
    ["abc", "letters"],
    ["1.234", "three decimals"],
    ["1,00", "bad grouping"],
    ["$", "a bare symbol"],
    ["1e3", "exponent"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "infinity"],
    [0.001, "a fraction of a cent"],
    [1e21, "a huge number"],
    ["99999999999999", "beyond the maximum"],
  ])("refuses %s (%s)", (input, _reason) => {
    expect(parseMoney(input as string | number)).toBeNull();
  });

  it("never loses a cent to floating point", () => {
    expect(parseMoney("0.29")).toBe(29);
    expect(parseMoney(0.29)).toBe(29);
    expect(parseMoney("1.15")).toBe(115);
    expect(parseMoney(MAX_CENTS / 100)).toBe(MAX_CENTS);
  });
});

describe("formatMoney", () => {
  it.each([
    [0, "$0.00"],
    [1, "$0.01"],
    [123_456, "$1,234.56"],
    [-310, "-$3.10"],
    [100_000_000_000, "$1,000,000,000.00"],
  ])("writes %i cents as %s", (cents, text) => {
    expect(formatMoney(cents)).toBe(text);
  });

  it("accepts bigint from the database", () => {
    expect(formatMoney(9_007_199_254_740_993n)).toBe("$90,071,992,547,409.93");
  });

  it("throws on a non-integer amount", () => {
    expect(() => formatMoney(1.5)).toThrow(TypeError);
  });

  it("round-trips through parseMoney", () => {
    for (const cents of [0, 5, 99, 100, 123_456_789]) expect(parseMoney(formatMoney(cents))).toBe(cents);
    expect(centsToDecimal(123_456)).toBe("1234.56");
  });
});
