import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatClockTime,
  formatDate,
  formatDateTime,
  formatDateTimeWithYear,
  formatRelativeTime,
  formatShortDate,
} from "@/web/lib/format";

// Times people read (docs/architecture.md "Design notes"): the web wrote browser time ("Nov 29, 4:03 AM")
// where PDFs and e-mails wrote New York time ("Nov 28, 11:03 PM ET"). Every formatter writes New York time
// with its zone, whatever the browser's zone.
const nearMidnightUtc = "2026-11-29T04:03:00Z";
const originalZone = process.env.TZ;

describe.each(["UTC", "Asia/Tokyo", "America/Los_Angeles"])("in a browser set to %s", (zone) => {
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    process.env.TZ = originalZone;
  });

  it("writes the instant as New York reads it, with ET", () => {
    expect(formatDateTime(nearMidnightUtc)).toBe("Nov 28, 11:03 PM ET");
    expect(formatDateTimeWithYear(nearMidnightUtc)).toBe("Nov 28, 2026, 11:03 PM ET");
    expect(formatClockTime(new Date(nearMidnightUtc))).toBe("11:03 PM ET");
    expect(formatDate(nearMidnightUtc)).toBe("November 28, 2026");
    expect(formatShortDate(nearMidnightUtc)).toBe("Nov 28, 2026");
  });

  it("keeps a calendar date (a due day, a birth date) on its own day", () => {
    expect(formatShortDate("2026-12-29")).toBe("Dec 29, 2026");
    expect(formatDate("1987-05-01")).toBe("May 1, 1987");
  });

  it("follows daylight saving time at both changes", () => {
    // 2026: EDT from Sunday March 8, 2:00 EST (07:00Z) to Sunday November 1, 2:00 EDT (06:00Z).
    expect(formatDateTime("2026-03-08T06:59:00Z")).toBe("Mar 8, 1:59 AM ET");
    expect(formatDateTime("2026-03-08T07:00:00Z")).toBe("Mar 8, 3:00 AM ET");
    expect(formatDateTime("2026-11-01T05:59:00Z")).toBe("Nov 1, 1:59 AM ET");
    expect(formatDateTime("2026-11-01T06:00:00Z")).toBe("Nov 1, 1:00 AM ET");
    expect(formatDateTime("2026-07-04T16:00:00Z")).toBe("Jul 4, 12:00 PM ET");
  });
});

describe("dates", () => {
  it("shows an em dash for a missing or unreadable value", () => {
    for (const value of [null, undefined, "", "not a date"]) {
      expect(formatDate(value)).toBe("—");
      expect(formatShortDate(value)).toBe("—");
      expect(formatDateTime(value)).toBe("—");
      expect(formatDateTimeWithYear(value)).toBe("—");
    }
  });

  it("says how long ago, then falls back to the short date and time", () => {
    const now = Date.parse("2026-11-22T20:04:00Z");
    expect(formatRelativeTime(new Date(now - 30_000), now)).toBe("Just now");
    expect(formatRelativeTime(new Date(now - 5 * 60_000), now)).toBe("5 min ago");
    expect(formatRelativeTime(new Date(now - 3 * 3_600_000), now)).toBe("3 h ago");
    expect(formatRelativeTime("2026-11-20T14:15:00Z", now)).toBe("Nov 20, 9:15 AM ET");
  });

  it("writes what en-US Intl writes for America/New_York, every hour of 2026 and 2027", () => {
    const intl = new Intl.DateTimeFormat("en-US", {
      timeZone: "America/New_York",
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
    });
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2028, 0, 1); ms += 3_600_000 + 7 * 60_000) {
      const date = new Date(ms);
      expect(formatDateTimeWithYear(date)).toBe(`${intl.format(date)} ET`);
    }
  });
});
