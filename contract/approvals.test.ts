import { describe, expect, it } from "vitest";
import { APPROVAL_KINDS, mayDecideApproval } from "@/contract/approvals";

// One rule for who may decide: the server's decide check and the Approvals tab both call mayDecideApproval.
describe("who may approve or reject", () => {
  it("gives KYC resets and lifting a freeze to compliance, never to finance", () => {
    for (const kind of ["kyc_reset", "unfreeze"] as const) {
      expect(mayDecideApproval(["finance"], kind)).toBe(false);
      expect(mayDecideApproval(["support"], kind)).toBe(false);
      expect(mayDecideApproval(["compliance"], kind)).toBe(true);
    }
  });

  it("gives money in and balance adjustments to finance, never to compliance or support", () => {
    for (const kind of [
      "incoming_payment",
      "credit",
      "balance_adjustment",
      "payout_settled_outside",
    ] as const) {
      expect(mayDecideApproval(["finance"], kind)).toBe(true);
      expect(mayDecideApproval(["compliance"], kind)).toBe(false);
      expect(mayDecideApproval(["support"], kind)).toBe(false);
    }
  });

  it("lets finance or compliance release a reported transfer, and owners decide every kind", () => {
    expect(mayDecideApproval(["finance"], "transfer_release")).toBe(true);
    expect(mayDecideApproval(["compliance"], "transfer_release")).toBe(true);
    expect(mayDecideApproval(["support"], "transfer_release")).toBe(false);
    for (const kind of APPROVAL_KINDS) {
      expect(mayDecideApproval(["owner"], kind)).toBe(true);
      expect(mayDecideApproval([], kind)).toBe(false);
    }
  });
});
