import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBankTime } from "@/contract/bank-time";
import { formatSecurityTime } from "@/server/lib/mail/security-templates";
import { formatNewYorkTime } from "@/server/lib/pdf-frame";
import { formatDateTimeWithYear } from "@/web/lib/format";

// Times people read (docs/architecture.md "Design notes"): e-mails wrote "EST"/"EDT", PDFs "ET", the web the
// browser's zone. One rule: New York, "ET".
describe("the server's times", () => {
  const originalZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = "Asia/Tokyo";
  });
  afterAll(() => {
    process.env.TZ = originalZone;
  });

  it("write New York time with ET in PDFs and e-mails, exactly as the web does", () => {
    const instant = new Date("2026-11-29T04:03:00Z");
    expect(formatBankTime(instant)).toBe("Nov 28, 2026, 11:03 PM ET");
    expect(formatNewYorkTime(instant)).toBe("Nov 28, 2026, 11:03 PM ET");
    expect(formatSecurityTime(instant)).toBe("Nov 28, 2026, 11:03 PM ET");
    expect(formatDateTimeWithYear(instant)).toBe(formatBankTime(instant));
    expect(formatSecurityTime(new Date("2026-07-04T16:00:00Z"))).toBe("Jul 4, 2026, 12:00 PM ET");
  });
});
