import { describe, expect, it } from "vitest";
import { limitDayOf } from "@/server/features/transfers/limit-day";

describe("limitDayOf", () => {
  it("uses the New York calendar day, not UTC", () => {
    expect(limitDayOf(new Date("2026-11-22T04:59:59Z"))).toBe("2026-11-21");
    expect(limitDayOf(new Date("2026-11-22T05:00:00Z"))).toBe("2026-11-22");
  });

  it("follows daylight saving time", () => {
    expect(limitDayOf(new Date("2026-07-01T03:59:59Z"))).toBe("2026-06-30");
    expect(limitDayOf(new Date("2026-07-01T04:00:00Z"))).toBe("2026-07-01");
  });
});
