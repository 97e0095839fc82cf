import { describe, expect, it } from "vitest";
import { alertEvidenceText } from "@/contract/alert-evidence-text";

describe("a monitoring alert's evidence in one line", () => {
  it("writes cents as dollars, events as kind, amount and day, and the judged event last", () => {
    const text = alertEvidenceText({
      event: { id: "e3", kind: "credit", at: "2026-11-27T10:00:00.000Z", amountCents: 95_000 },
      limitCents: 100_000,
      windowDays: 7,
      events: [
        { id: "e1", kind: "credit", at: "2026-11-25T10:00:00.000Z", amountCents: 99_999 },
        { id: "e2", kind: "credit", at: "2026-11-26T10:00:00.000Z", amountCents: 90_000 },
      ],
    });
    expect(text).toBe(
      "limit: $1,000.00; window days: 7; events: 2 (credit $999.99 on 2026-11-25, credit $900.00 on 2026-11-26); judged event: credit $950.00 on 2026-11-27",
    );
  });

  it("names ten events of a long list and counts the rest, and survives odd values", () => {
    const events = Array.from({ length: 13 }, (_, i) => ({ kind: "transfer", amountCents: i + 1 }));
    const text = alertEvidenceText({ events, note: null, nested: { a: 1 }, address: "0xabc" });
    expect(text).toContain("events: 13 (transfer $0.01,");
    expect(text).toContain("and 3 more)");
    expect(text).toContain('nested: {"a":1}');
    expect(text).toContain("note: null");
    expect(text).toContain("address: 0xabc");
  });
});
