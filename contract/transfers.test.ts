import { describe, expect, it } from "vitest";
import { transferReference } from "@/contract/transfers";

describe("transferReference", () => {
  it("is the id's first 8 hex characters, upper-cased, whatever the id's case", () => {
    expect(transferReference("db07f4d1-3c2a-4e1b-9f00-123456789abc")).toBe("DB07F4D1");
    expect(transferReference("DB07F4D1-3C2A-4E1B-9F00-123456789ABC")).toBe("DB07F4D1");
  });

  it("skips the id's hyphens so a short first group cannot shorten the reference", () => {
    expect(transferReference("ab-cdef0123")).toBe("ABCDEF01");
  });
});
