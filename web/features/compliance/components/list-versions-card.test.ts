import { describe, expect, it } from "vitest";
import {
  describeListVersion,
  describeRescreen,
} from "@/web/features/compliance/components/list-versions-card";

describe("the sanctions list card's counts", () => {
  it("says 1 address, 1 customer and 1 new hit, never '1 addresses'", () => {
    expect(
      describeRescreen({
        message: "List version 2 is active",
        rescreen: { customers: 1, addresses: 1, newHits: 1 },
      }),
    ).toBe("List version 2 is active. Re-screened 1 customer and 1 address: 1 new hit.");
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
      describeRescreen({
        message: "List version 3 is active",
        rescreen: { customers: 0, addresses: 2, newHits: 0 },
      }),
    ).toBe("List version 3 is active. Re-screened 0 customers and 2 addresses: 0 new hits.");
  });
});
