import { describe, expect, it } from "vitest";
import { balancePointHeading, deriveBalanceHistory } from "@/web/features/accounts/balance-history";

const credit = (amountCents: number, status: "completed" | "pending" = "completed") =>
  ({ type: "credit", amountCents, status }) as const;
const debit = (amountCents: number, status: "completed" | "pending" = "completed") =>
  ({ type: "debit", amountCents, status }) as const;

describe("balance history", () => {
  it("shows two equal points, 'Last Week' and 'Today', when there are no transactions", () => {
    const history = deriveBalanceHistory(50_000, []);
    expect(history.points).toEqual([
      { label: "Last Week", balanceCents: 50_000 },
      { label: "Today", balanceCents: 50_000 },
    ]);
    expect(history.changeCents).toBe(0);
    expect(history.changePercent).toBe(0);
  });

  it("walks back from the current balance, subtracting credits and adding debits, oldest point first", () => {
    // Newest first: a $20 debit today, before it a $100 credit.
    const history = deriveBalanceHistory(18_000, [debit(2_000), credit(10_000)]);
    expect(history.points).toEqual([
      { label: "2 days ago", balanceCents: 10_000 },
      { label: "1 day ago", balanceCents: 20_000 },
      { label: "Today", balanceCents: 18_000 },
    ]);
  });

  it("compares the current balance with the point before it", () => {
    const history = deriveBalanceHistory(18_000, [debit(2_000), credit(10_000)]);
    expect(history.changeCents).toBe(-2_000);
    expect(history.changePercent).toBeCloseTo(-10);
  });

  it("floors the balance at 0 while undoing credits", () => {
    const history = deriveBalanceHistory(5_000, [credit(8_000), credit(1_000)]);
    expect(history.points.map((p) => p.balanceCents)).toEqual([0, 0, 5_000]);
  });

  it("reports a 0% change when the previous point is 0", () => {
    const history = deriveBalanceHistory(5_000, [credit(8_000)]);
    expect(history.changeCents).toBe(5_000);
    expect(history.changePercent).toBe(0);
  });

  it("goes back over at most the 7 most recent transactions", () => {
    const history = deriveBalanceHistory(
      100_000,
      Array.from({ length: 12 }, () => credit(1_000)),
    );
    expect(history.points).toHaveLength(8);
    expect(history.points[0]).toEqual({ label: "7 days ago", balanceCents: 93_000 });
    expect(history.points.at(-1)).toEqual({ label: "Today", balanceCents: 100_000 });
  });

  it("leaves the balance unchanged for transactions that have not completed", () => {
    const history = deriveBalanceHistory(10_000, [debit(3_000, "pending"), credit(4_000)]);
    expect(history.points.map((p) => p.balanceCents)).toEqual([6_000, 10_000, 10_000]);
  });

  it("gives each point the real date of the transaction it came just before, for the tooltip", () => {
    const history = deriveBalanceHistory(18_000, [
      {
        type: "debit",
        amountCents: 2_000,
        status: "completed",
        date: "2026-11-20T20:04:00.000Z",
        description: "Coffee",
      },
      {
        type: "credit",
        amountCents: 10_000,
        status: "completed",
        date: "2026-11-02T14:00:00.000Z",
        description: "Payroll",
      },
    ]);
    expect(history.points.map((p) => p.before?.date)).toEqual([
      "2026-11-02T14:00:00.000Z",
      "2026-11-20T20:04:00.000Z",
      undefined,
    ]);
    const [oldest, , today] = history.points;
    expect(balancePointHeading(oldest!)).toMatch(/^2 days ago · before Payroll on Nov 2, /);
    expect(balancePointHeading(today!)).toBe("Today");
  });

  it("skips cancelled and failed items: they moved nothing and take no point", () => {
    const history = deriveBalanceHistory(18_000, [
      { type: "debit", amountCents: 5_000, status: "cancelled" },
      debit(2_000),
      { type: "debit", amountCents: 900, status: "failed" },
      credit(10_000),
    ]);
    expect(history.points).toEqual([
      { label: "2 days ago", balanceCents: 10_000 },
      { label: "1 day ago", balanceCents: 20_000 },
      { label: "Today", balanceCents: 18_000 },
    ]);
    expect(history.changeCents).toBe(-2_000);
  });

  it("labels the points with their real dates and times when two of them fall on the same day", () => {
    const history = deriveBalanceHistory(18_000, [
      {
        type: "debit",
        amountCents: 2_000,
        status: "completed",
        date: "2026-11-20T13:30:00.000Z",
        description: "Coffee",
      },
      {
        type: "credit",
        amountCents: 10_000,
        status: "completed",
        date: "2026-11-20T12:00:00.000Z",
        description: "Payroll",
      },
      {
        type: "credit",
        amountCents: 500,
        status: "completed",
        date: "2026-11-02T12:00:00.000Z",
        description: "Gift",
      },
    ]);
    const labels = history.points.map((p) => p.label);
    expect(labels).toHaveLength(4);
    expect(labels[0]).toMatch(/^Nov 2, \d{1,2}:\d{2} [AP]M ET$/);
    expect(labels[1]).toMatch(/^Nov 20, /);
    expect(labels[2]).toMatch(/^Nov 20, /);
    expect(labels[1]).not.toBe(labels[2]);
    expect(labels[3]).toBe("Today");
    expect(balancePointHeading(history.points[1]!)).toBe(`${labels[1]} · before Payroll`);
  });

  it("adds the seconds when two points fall in the same minute, so no two labels read alike", () => {
    const history = deriveBalanceHistory(18_000, [
      { type: "debit", amountCents: 2_000, status: "completed", date: "2026-11-20T12:40:41.000Z" },
      { type: "credit", amountCents: 10_000, status: "completed", date: "2026-11-20T12:40:03.000Z" },
    ]);
    const [oldest, newer] = history.points.map((p) => p.label);
    expect(oldest).toMatch(/^Nov 20, \d{1,2}:\d{2}:03 [AP]M ET$/);
    expect(newer).toMatch(/^Nov 20, \d{1,2}:\d{2}:41 [AP]M ET$/);
  });

  it("keeps the spec's 'N days ago' labels while every point is on a day of its own", () => {
    const history = deriveBalanceHistory(18_000, [
      { type: "debit", amountCents: 2_000, status: "completed", date: "2026-11-20T12:00:00.000Z" },
      { type: "credit", amountCents: 10_000, status: "completed", date: "2026-11-02T12:00:00.000Z" },
    ]);
    expect(history.points.map((p) => p.label)).toEqual(["2 days ago", "1 day ago", "Today"]);
  });
});
