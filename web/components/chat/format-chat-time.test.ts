import { describe, expect, it } from "vitest";
import { formatChatTime } from "@/web/components/chat/format-chat-time";

describe("chat times", () => {
  const now = new Date(2026, 10, 22, 15, 0).getTime();

  it("shows only the time within 24 hours", () => {
    expect(formatChatTime(new Date(2026, 10, 22, 9, 5).toISOString(), now)).toBe("9:05 AM");
    expect(formatChatTime(new Date(2026, 10, 21, 15, 30).toISOString(), now)).toBe("3:30 PM");
  });

  it("adds the short month and day from 24 hours on", () => {
    expect(formatChatTime(new Date(2026, 10, 21, 15, 0).toISOString(), now)).toBe("Nov 21, 3:00 PM");
    expect(formatChatTime(new Date(2026, 0, 3, 8, 0).toISOString(), now)).toBe("Jan 3, 8:00 AM");
  });

  it("shows nothing for an unreadable time", () => {
    expect(formatChatTime("not a date", now)).toBe("");
  });
});
