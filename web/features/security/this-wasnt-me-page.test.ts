import { describe, expect, it } from "vitest";
import { failureOf } from "@/web/features/security/link-failure";
import { ApiError } from "@/web/lib/api";

const refused = (status: number, body: Record<string, unknown>) => new ApiError(status, "Refused", body);

describe("the “This wasn't me” page reads the freeze link's refusal by its reason", () => {
  it("shows the invalid, expired and used link states", () => {
    expect(failureOf(refused(400, { reason: "freeze_link_invalid", freezeLinkInvalid: true }))).toBe(
      "invalid",
    );
    expect(failureOf(refused(410, { reason: "freeze_link_expired", freezeLinkExpired: true }))).toBe(
      "expired",
    );
    expect(failureOf(refused(410, { reason: "freeze_link_used", freezeLinkUsed: true }))).toBe("used");
  });

  it("a flag without its reason, another reason or a network failure is the general case", () => {
    expect(failureOf(refused(410, { freezeLinkUsed: true }))).toBe("other");
    expect(failureOf(refused(403, { reason: "account_frozen", accountFrozen: true }))).toBe("other");
    expect(failureOf(new TypeError("Failed to fetch"))).toBe("other");
  });
});
