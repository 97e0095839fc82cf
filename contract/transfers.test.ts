import { describe, expect, it } from "vitest";
import { hasNoChecksum, transferReference } from "@/contract/transfers";

describe("transferReference", () => {
  it("is the id's first 8 hex characters, upper-cased, whatever the id's case", () => {
    expect(transferReference("db07f4d1-3c2a-4e1b-9f00-123456789abc")).toBe("DB07F4D1");
    expect(transferReference("DB07F4D1-3C2A-4E1B-9F00-123456789ABC")).toBe("DB07F4D1");
  });

  it("skips the id's hyphens so a short first group cannot shorten the reference", () => {
    expect(transferReference("ab-cdef0123")).toBe("ABCDEF01");
  });
});

describe("hasNoChecksum", () => {
  it("is true for an EVM address with letters in small letters only, false for mixed case, capitals and others", () => {
    const checksummed = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
    expect(hasNoChecksum(checksummed.toLowerCase())).toBe(true);
    expect(hasNoChecksum(checksummed)).toBe(false);
    // An EIP-55 address whose checksum capitalises every letter, and one in capitals the server will check.
    expect(hasNoChecksum("0x52908400098527886E0F7030069857D2E4169EE7")).toBe(false);
    expect(hasNoChecksum(`0x${checksummed.slice(2).toUpperCase()}`)).toBe(false);
    // No letters at all: the address is its own checksummed form.
    expect(hasNoChecksum(`0x${"1234567890".repeat(4)}`)).toBe(false);
    expect(hasNoChecksum("7EcDhSYGxXzrKpUw3Xy8uS4YZ8hW5YQpL1bdr8sL7DxM")).toBe(false);
    expect(hasNoChecksum("0x1234")).toBe(false);
  });
});
