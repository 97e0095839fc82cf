import { describe, expect, it } from "vitest";
import { addBusinessDays, isBusinessDay } from "@/server/features/compliance/business-days";

describe("business days for OFAC's reporting deadlines", () => {
  it("skips weekends", () => {
    // Friday Nov 6, 2026 + 1 business day is Monday Nov 9.
    expect(addBusinessDays("2026-11-06", 1)).toBe("2026-11-09");
    // Monday Nov 2 + 10: Nov 3–6, 9, 10, (Veterans Day Nov 11 skipped), 12, 13, 16, 17.
    expect(addBusinessDays("2026-11-02", 10)).toBe("2026-11-17");
  });

  it("skips federal holidays as observed", () => {
    // Thanksgiving, Thursday Nov 26, 2026.
    expect(isBusinessDay("2026-11-26")).toBe(false);
    expect(addBusinessDays("2026-11-25", 1)).toBe("2026-11-27");
    // Sunday Nov 29, 2026 + 10: Dec 1–4, 7–11, 14 (no holiday between).
    expect(addBusinessDays("2026-11-29", 10)).toBe("2026-12-11");
    // Christmas 2026 is a Friday; New Year's Day 2027 a Friday too.
    expect(addBusinessDays("2026-12-18", 10)).toBe("2027-01-05");
    // Independence Day 2026 falls on a Saturday: observed Friday July 3.
    expect(isBusinessDay("2026-07-03")).toBe(false);
    // New Year's Day 2028 falls on a Saturday: observed Friday Dec 31, 2027.
    expect(isBusinessDay("2027-12-31")).toBe(false);
    // MLK Day 2027: the third Monday of January, Jan 18; Memorial Day 2027: May 31.
    expect(isBusinessDay("2027-01-18")).toBe(false);
    expect(isBusinessDay("2027-05-31")).toBe(false);
    expect(isBusinessDay("2027-05-24")).toBe(true);
  });
});
