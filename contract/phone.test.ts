import { describe, expect, it } from "vitest";
import { formatPhone, normalisePhone } from "@/contract/phone";

describe("phone numbers", () => {
  it("normalises what people type to E.164, reading numbers without a country code as US", () => {
    expect(normalisePhone("(415) 555-0132")).toBe("+14155550132");
    expect(normalisePhone("415.555.0132")).toBe("+14155550132");
    expect(normalisePhone(" +1 212 555 0100 ")).toBe("+12125550100");
    expect(normalisePhone("1-212-555-0100")).toBe("+12125550100");
    expect(normalisePhone("+44 20 7946 0958")).toBe("+442079460958");
    expect(normalisePhone("+33 1 23 45 67 89")).toBe("+33123456789");
  });

  it("refuses numbers that cannot exist", () => {
    for (const bad of ["12345", "555-0100", "0123456", "+1 212 555 01001", "+999 1234 5678", "phone"]) {
      expect(normalisePhone(bad), bad).toBeUndefined();
    }
  });

  it("shows US numbers in national format and others in international format", () => {
    expect(formatPhone("+14155550132")).toBe("(415) 555-0132");
    expect(formatPhone("+14165550132")).toBe("+1 416 555 0132");
    expect(formatPhone("+442079460958")).toBe("+44 20 7946 0958");
  });

  it("shows a number stored as typed before normalisation in the same format, and an unreadable one as stored", () => {
    expect(formatPhone("+1 212 555 0100")).toBe("(212) 555-0100");
    expect(formatPhone("212-555-0100")).toBe("(212) 555-0100");
    expect(formatPhone("555-0100")).toBe("555-0100");
  });
});
