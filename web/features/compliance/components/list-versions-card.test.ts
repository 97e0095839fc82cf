import { describe, expect, it } from "vitest";
import {
  describeListVersion,
  describeRescreen,
  describeUpload,
} from "@/web/features/compliance/components/list-versions-card";

describe("the sanctions list card's counts", () => {
  it("says 1 address, 1 customer and 1 new hit, never '1 addresses'", () => {
    expect(describeRescreen({ status: "done", total: 1, customers: 1, addresses: 1, newHits: 1 })).toBe(
      "Re-screen done: 1 of 1 customer · 1 address · 1 new hit.",
    );
    expect(describeUpload({ message: "List version 2 is active" })).toBe(
      "List version 2 is active. Every customer is being re-screened against it: the progress shows below.",
    );
    expect(
      describeListVersion({
        entryCount: 1,
        nameCount: 1,
        addressCount: 1,
        files: [{ name: "SDN.CSV", sha256: "0123456789abcdef", bytes: 10, records: 1 }],
      }),
    ).toBe("1 entry · 1 name · 1 currency address · SDN.CSV 0123456789ab…");
  });

  it("keeps the plural for none and for many", () => {
    expect(
      describeRescreen({ status: "running", total: 12_000, customers: 3_000, addresses: 2, newHits: 0 }),
    ).toBe("Re-screen running: 3,000 of 12,000 customers · 2 addresses · 0 new hits.");
    expect(describeRescreen({ status: "queued", total: null, customers: 0, addresses: 0, newHits: 0 })).toBe(
      "Re-screen queued: waiting to start · 0 addresses · 0 new hits.",
    );
  });
});
