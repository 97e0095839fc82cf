import { describe, expect, it } from "vitest";
import type { Transaction } from "@/contract/transactions";
import { filterTransactions, matchCountText } from "@/web/features/accounts/filter-transactions";

function tx(overrides: Partial<Transaction>): Transaction {
  return {
    id: "t",
    userId: "u",
    type: "credit",
    amount: "100.00",
    fee: "0.00",
    netAmount: "100.00",
    amountCents: 10_000,
    feeCents: 0,
    netAmountCents: 10_000,
    description: "Payroll",
    category: "other",
    status: "completed",
    date: "2026-11-20T10:00:00.000Z",
    ...overrides,
  };
}

const list = [
  tx({ id: "a", description: "Payroll deposit", amount: "1250.00", amountCents: 125_000 }),
  tx({
    id: "b",
    type: "debit",
    description: "USDC transfer to Ana",
    amount: "12.50",
    amountCents: 1_250,
    status: "pending",
  }),
  tx({ id: "c", type: "incoming_payment", description: "Refund", status: "initiated" }),
];
const ids = (items: Transaction[]) => items.map((t) => t.id);

describe("payment history filters", () => {
  it("shows everything with the defaults", () => {
    expect(ids(filterTransactions(list, { search: "", status: "all", type: "all" }))).toEqual([
      "a",
      "b",
      "c",
    ]);
  });

  it("searches the description, case-insensitively", () => {
    expect(ids(filterTransactions(list, { search: "ana", status: "all", type: "all" }))).toEqual(["b"]);
  });

  it("searches the amount with or without the dollar sign and commas", () => {
    expect(ids(filterTransactions(list, { search: "$1,250", status: "all", type: "all" }))).toEqual(["a"]);
    expect(ids(filterTransactions(list, { search: "12.50", status: "all", type: "all" }))).toEqual(["b"]);
  });

  it("filters money in and money out", () => {
    expect(ids(filterTransactions(list, { search: "", status: "all", type: "incoming" }))).toEqual([
      "a",
      "c",
    ]);
    expect(ids(filterTransactions(list, { search: "", status: "all", type: "outgoing" }))).toEqual(["b"]);
  });

  it("treats initiated as processing", () => {
    expect(ids(filterTransactions(list, { search: "", status: "processing", type: "all" }))).toEqual(["c"]);
  });
});

describe("match count", () => {
  it("pluralises", () => {
    expect(matchCountText(0)).toBe("0 transactions match your filters");
    expect(matchCountText(1)).toBe("1 transaction matches your filters");
    expect(matchCountText(2)).toBe("2 transactions match your filters");
  });
});
