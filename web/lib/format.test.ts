import { describe, expect, it } from "vitest";
import { formatClockTime, formatDate, formatDateTime, formatRelativeTime } from "@/web/lib/format";

describe("dates", () => {
  const afternoon = new Date(2026, 10, 22, 15, 4);

  it("writes a long US date", () => {
    expect(formatDate(afternoon)).toBe("November 22, 2026");
    expect(formatDate(afternoon.toISOString())).toBe("November 22, 2026");
    expect(formatDate(new Date(2027, 0, 3, 0, 30))).toBe("January 3, 2027");
  });

  it("writes a short date and time", () => {
    expect(formatDateTime(afternoon)).toBe("Nov 22, 3:04 PM");
    expect(formatDateTime(new Date(2026, 0, 3, 8, 0).toISOString())).toBe("Jan 3, 8:00 AM");
  });

  it("shows an em dash for a missing or unreadable value", () => {
    for (const value of [null, undefined, "", "not a date"]) {
      expect(formatDate(value)).toBe("—");
      expect(formatDateTime(value)).toBe("—");
    }
  });

  it("says how long ago, then falls back to the short date and time", () => {
    const now = afternoon.getTime();
    expect(formatRelativeTime(new Date(now - 30_000), now)).toBe("Just now");
    expect(formatRelativeTime(new Date(now - 5 * 60_000), now)).toBe("5 min ago");
    expect(formatRelativeTime(new Date(now - 3 * 3_600_000), now)).toBe("3 h ago");
    expect(formatRelativeTime(new Date(2026, 10, 20, 9, 15), now)).toBe("Nov 20, 9:15 AM");
  });

  it("writes what the browser's en-US Intl formatter writes, for every month and hour", () => {
    for (let month = 0; month < 12; month += 1) {
      for (let hour = 0; hour < 24; hour += 1) {
        const date = new Date(2026, month, 9 + hour, hour, (hour * 7) % 60);
        expect(formatDate(date)).toBe(
          date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" }),
        );
        expect(formatDateTime(date)).toBe(
          date.toLocaleString("en-US", {
            month: "short",
            day: "numeric",
            hour: "numeric",
            minute: "2-digit",
          }),
        );
        expect(formatClockTime(date)).toBe(
          date.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" }),
        );
      }
    }
  });
});
