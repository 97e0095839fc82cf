import { describe, expect, it } from "vitest";
import { formatChatTime } from "@/web/components/chat/format-chat-time";

describe("chat times", () => {
  // New York times with their zone (docs/architecture.md "Design notes"): 15:00 New York on Nov 22 is 20:00
  // UTC.
  const now = Date.parse("2026-11-22T20:00:00Z");

  it("shows only the time within 24 hours", () => {
    expect(formatChatTime("2026-11-22T14:05:00Z", now)).toBe("9:05 AM ET");
    expect(formatChatTime("2026-11-21T20:30:00Z", now)).toBe("3:30 PM ET");
  });

  it("adds the short month and day from 24 hours on", () => {
    expect(formatChatTime("2026-11-21T20:00:00Z", now)).toBe("Nov 21, 3:00 PM ET");
    expect(formatChatTime("2026-01-03T13:00:00Z", now)).toBe("Jan 3, 8:00 AM ET");
  });

  it("shows nothing for an unreadable time", () => {
    expect(formatChatTime("not a date", now)).toBe("");
  });
});
