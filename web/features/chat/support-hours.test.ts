import { describe, expect, it } from "vitest";
import { isSupportOpen } from "@/web/features/chat/support-hours";

describe("support hours (New York time)", () => {
  it("is open on weekdays 9:00 AM to 6:00 PM", () => {
    expect(isSupportOpen(new Date("2026-11-24T14:00:00Z"))).toBe(true); // Tue 9:00 AM EST
    expect(isSupportOpen(new Date("2026-11-24T13:59:00Z"))).toBe(false); // Tue 8:59 AM
    expect(isSupportOpen(new Date("2026-11-24T22:59:00Z"))).toBe(true); // Tue 5:59 PM
    expect(isSupportOpen(new Date("2026-11-24T23:00:00Z"))).toBe(false); // Tue 6:00 PM
  });

  it("is open Saturday 10:00 AM to 4:00 PM and closed on Sunday", () => {
    expect(isSupportOpen(new Date("2026-11-28T15:00:00Z"))).toBe(true); // Sat 10:00 AM
    expect(isSupportOpen(new Date("2026-11-28T21:00:00Z"))).toBe(false); // Sat 4:00 PM
    expect(isSupportOpen(new Date("2026-11-29T17:00:00Z"))).toBe(false); // Sun noon
  });

  it("follows daylight saving time", () => {
    expect(isSupportOpen(new Date("2026-07-14T13:00:00Z"))).toBe(true); // Tue 9:00 AM EDT
    expect(isSupportOpen(new Date("2026-07-14T12:59:00Z"))).toBe(false);
  });
});
