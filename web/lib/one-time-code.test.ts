import { describe, expect, it } from "vitest";
import { cleanCode } from "@/web/lib/one-time-code";

describe("cleanCode", () => {
  it("keeps only digits, up to six, from what was typed or pasted", () => {
    expect(cleanCode("12a 3-45")).toBe("12345");
    expect(cleanCode("1234567")).toBe("123456");
    expect(cleanCode("code: 000 111")).toBe("000111");
    expect(cleanCode("")).toBe("");
  });
});
