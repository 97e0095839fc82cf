import { describe, expect, it } from "vitest";
import { monthOf, monthsBetween, parseStatementMonth } from "@/server/features/statements/statement-month";

describe("statement months", () => {
  it("starts a month at midnight New York time, in winter and under daylight time", () => {
    expect(parseStatementMonth("2026-01").start.toISOString()).toBe("2026-01-01T05:00:00.000Z");
    expect(parseStatementMonth("2026-07").start.toISOString()).toBe("2026-07-01T04:00:00.000Z");
    // November starts under daylight time and ends under standard time.
    const november = parseStatementMonth("2026-11");
    expect(november.start.toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(november.end.toISOString()).toBe("2026-12-01T05:00:00.000Z");
    expect(parseStatementMonth("2026-12").end.toISOString()).toBe("2027-01-01T05:00:00.000Z");
  });

  it("puts an instant just before New York midnight in the earlier month", () => {
    expect(monthOf(new Date("2026-12-01T04:59:59Z"))).toBe("2026-11");
    expect(monthOf(new Date("2026-12-01T05:00:00Z"))).toBe("2026-12");
  });

  it.each(["2026-13", "2026-00", "2026-1", "26-01", "2026-01-01", "", "abcd-ef"])("refuses %j", (month) => {
    expect(() => parseStatementMonth(month)).toThrow("Statement month must look like 2026-11");
  });

  it("lists months newest first across a year boundary", () => {
    expect(monthsBetween("2025-11", "2026-02")).toEqual(["2026-02", "2026-01", "2025-12", "2025-11"]);
    expect(monthsBetween("2026-02", "2026-02")).toEqual(["2026-02"]);
  });
});
