import { describe, expect, it } from "vitest";
import { checkPasswordStrength } from "@/contract/password-strength";

describe("checkPasswordStrength", () => {
  it.each(["password", "123456", "qwerty123", "iloveyou", "Password1", "letmein!"])(
    "marks %s as too common",
    (password) => {
      expect(checkPasswordStrength(password).isTooCommon).toBe(true);
    },
  );

  it.each(["Quartz-Meadow-47-lantern", "x9$Kq2!vLp", "correct horse battery staple"])(
    "accepts %s",
    (password) => {
      expect(checkPasswordStrength(password).isTooCommon).toBe(false);
    },
  );

  it("counts the user's own details as guessable", () => {
    expect(checkPasswordStrength("zanzibarquokka", ["zanzibarquokka@example.com"]).score).toBeLessThan(
      checkPasswordStrength("zanzibarquokka").score,
    );
  });
});
