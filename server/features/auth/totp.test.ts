import { describe, expect, it } from "vitest";
import { matchTotpStep } from "@/server/features/auth/totp";

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", here in base32; codes are the last 6 digits.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("matchTotpStep", () => {
  it("accepts the RFC 6238 test vectors at their own step", () => {
    expect(matchTotpStep(RFC_SECRET, "287082", null, 59_000)).toBe(1);
    expect(matchTotpStep(RFC_SECRET, "081804", null, 1_111_111_109_000)).toBe(37_037_036);
  });

  it("allows one step of clock drift either way, and no more", () => {
    expect(matchTotpStep(RFC_SECRET, "287082", null, 89_000)).toBe(1);
    expect(matchTotpStep(RFC_SECRET, "287082", null, 29_000)).toBe(1);
    expect(matchTotpStep(RFC_SECRET, "287082", null, 119_000)).toBeNull();
  });

  it("refuses a step already used, and anything that is not a code", () => {
    expect(matchTotpStep(RFC_SECRET, "287082", 1, 59_000)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, "287082", 0, 59_000)).toBe(1);
    expect(matchTotpStep(RFC_SECRET, "28708", null, 59_000)).toBeNull();
    expect(matchTotpStep("not base32!", "287082", null, 59_000)).toBeNull();
  });
});
