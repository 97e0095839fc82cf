import { describe, expect, it } from "vitest";
import { summarizeTransactions } from "@/web/features/accounts/analytics-summary";

type Status = "completed" | "pending" | "failed" | "cancelled";
const tx = (
  type: "credit" | "debit" | "incoming_payment",
  amountCents: number,
  status: Status = "completed",
) => ({ type, amountCents, status, category: type === "debit" ? "food" : "other" }) as const;

describe("analytics summary", () => {
  it("counts, averages and sums spending over the items that moved or are moving money", () => {
    const summary = summarizeTransactions([
      tx("debit", 2_000),
      tx("credit", 10_000),
      tx("debit", 1_000, "pending"),
    ]);
    expect(summary).toMatchObject({
      totalSpendingCents: 3_000,
      count: 3,
      averageCents: 4_333,
      credits: 1,
      debits: 2,
    });
    expect(summary.byCategory).toEqual([expect.objectContaining({ key: "food", cents: 3_000 })]);
  });

  it("leaves moves between checking and savings out: neither spending nor money in", () => {
    const summary = summarizeTransactions([
      tx("debit", 2_000),
      { type: "debit", amountCents: 50_000, status: "completed", category: "savings" },
      { type: "credit", amountCents: 10_000, status: "completed", category: "savings" },
    ]);
    expect(summary).toMatchObject({
      totalSpendingCents: 2_000,
      count: 1,
      averageCents: 2_000,
      credits: 0,
      debits: 1,
    });
    expect(summary.byCategory).toEqual([expect.objectContaining({ key: "food", cents: 2_000 })]);
  });

  it("leaves cancelled and failed items out of the counts, the average and the spending", () => {
    // The case: a $1,500 credit and three transfers that never left showed 4 transactions, 1 debit and
    // an average of $431.35 next to $0.00 spent.
    const summary = summarizeTransactions([
      tx("debit", 5_000, "cancelled"),
      tx("debit", 2_540, "failed"),
      tx("incoming_payment", 150_000),
      tx("credit", 9_999, "cancelled"),
    ]);
    expect(summary).toMatchObject({
      totalSpendingCents: 0,
      count: 1,
      averageCents: 150_000,
      credits: 1,
      debits: 0,
    });
    expect(summary.byCategory).toEqual([]);
  });

  it("shows nothing counted when every item was cancelled or failed", () => {
    const summary = summarizeTransactions([tx("debit", 5_000, "cancelled"), tx("credit", 100, "failed")]);
    expect(summary).toMatchObject({
      totalSpendingCents: 0,
      count: 0,
      averageCents: 0,
      credits: 0,
      debits: 0,
    });
  });
});
