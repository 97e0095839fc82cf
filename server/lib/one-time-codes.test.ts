import { describe, expect, it } from "vitest";
import { generateCode } from "@/server/lib/one-time-codes";

describe("generateCode", () => {
  it("always gives six digits, leading zeros included", () => {
    const codes = Array.from({ length: 2000 }, generateCode);
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1990);
  });
});
