import { describe, expect, it } from "vitest";
import type { OnboardingState } from "@/contract/kyc";
import { onboardingView } from "@/web/components/dashboard/onboarding-steps";

const LABELS = {
  statusTitle: "Account Request Status",
  statusMessage: "Your account application is being reviewed",
};
const at = "2026-11-20T15:00:00.000Z";
const kyc = (status: "pending" | "approved" | "rejected", adminNotes: string | null = null) => ({
  status,
  adminNotes,
  submittedAt: at,
  reviewedAt: status === "pending" ? null : at,
});
const request = (
  status: "pending" | "in_review" | "approved" | "rejected",
  statusMessage: string | null = null,
) => ({
  accountType: "personal" as const,
  status,
  statusMessage,
  accountNumberLast4: status === "approved" ? "4821" : null,
  createdAt: at,
  approvedAt: status === "approved" ? at : null,
});
const view = (state: OnboardingState) => onboardingView(state, LABELS);
const badges = (state: OnboardingState) => view(state).steps.map((s) => s.badge.label);

describe("onboarding timeline", () => {
  it("offers 'Apply Checking Account' before any application", () => {
    const v = view({ kyc: null, accountRequest: null });
    expect(v.title).toBe("Checking Account: Not Available");
    expect(v.steps.map((s) => s.badge.label)).toEqual(["Not Started", "Not Available"]);
    expect(v.action).toEqual({ label: "Apply Checking Account", href: "/apply-checking" });
  });

  it("never shows a pending account beside a rejected identity check, and shows the reason", () => {
    const v = view({
      kyc: kyc("rejected", "The licence photo is blurred"),
      accountRequest: request("pending"),
    });
    expect(v.steps.map((s) => s.badge.label)).toEqual(["Rejected", "Not Opened"]);
    expect(v.steps[0].reason).toBe("The licence photo is blurred");
    expect(v.steps[0].text).toBe("Your application was not approved. You can submit a new application.");
    expect(v.action?.label).toBe("Submit New Application");
    expect(JSON.stringify(v)).not.toMatch(/Pending|being reviewed/);
  });

  it("shows the review in progress with the spec's 24-hour text", () => {
    const v = view({ kyc: kyc("pending"), accountRequest: request("pending") });
    expect(badges({ kyc: kyc("pending"), accountRequest: request("pending") })).toEqual([
      "Pending Review",
      "Pending",
    ]);
    expect(v.steps[0].text).toContain("up to 24 hours");
    expect(v.steps[1].text).toBe(LABELS.statusMessage);
    expect(v.action).toBeNull();
  });

  it("uses the admin's status message while the account request is reviewed", () => {
    const v = view({ kyc: kyc("approved"), accountRequest: request("in_review") });
    expect(v.steps.map((s) => s.badge.label)).toEqual(["Verified", "In Review"]);
    expect(v.steps[1].text).toBe(LABELS.statusMessage);
  });

  it("says the account is open once approved", () => {
    const v = view({ kyc: kyc("approved"), accountRequest: request("approved") });
    expect(v.steps.map((s) => s.state)).toEqual(["done", "done"]);
    expect(v.steps[1].text).toBe("Congratulations! Your account has been approved");
  });

  it("shows a rejected account request with its message and the new-application link", () => {
    const v = view({
      kyc: kyc("approved"),
      accountRequest: request("rejected", "We could not confirm your address"),
    });
    expect(v.steps.map((s) => s.badge.label)).toEqual(["Verified", "Rejected"]);
    expect(v.steps[1].reason).toBe("We could not confirm your address");
    expect(v.action?.label).toBe("Submit New Application");
  });

  it("reads the identity step from the identity check alone: a check reset to pending is not verified", () => {
    const reset = view({ kyc: kyc("pending"), accountRequest: request("approved") });
    expect(reset.steps[0].badge.label).toBe("Pending Review");
    expect(reset.steps[0].state).toBe("current");
    const rejected = view({ kyc: kyc("rejected", "Blurred photo"), accountRequest: request("approved") });
    expect(rejected.steps[0].badge.label).toBe("Rejected");
    expect(JSON.stringify([reset, rejected])).not.toContain("Verified");
  });
});
