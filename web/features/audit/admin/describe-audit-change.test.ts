import { describe, expect, it } from "vitest";
import { describeAuditChange } from "@/web/features/audit/admin/describe-audit-change";

describe("describeAuditChange", () => {
  it("shows a balance change in dollars, not cents", () => {
    expect(describeAuditChange({ balance: 0 }, { balance: 150_000 })).toEqual(["Balance $0.00 → $1,500.00"]);
  });

  it("reads an approval request without ids: kind, amount, status and balance", () => {
    expect(
      describeAuditChange(
        { creditStatus: null, balance: 0 },
        {
          kind: "credit",
          userId: "1d32fcd3-3107-4ca4-b951-10a0f2a40e9a",
          amount: 150_000,
          creditStatus: "completed",
          balance: 150_000,
        },
      ),
    ).toEqual([
      "Credit Not created → completed",
      "Balance $0.00 → $1,500.00",
      "Request Credit",
      "Amount $1,500.00",
    ]);
  });

  it("reads a decision, a freeze lift and a role change", () => {
    expect(
      describeAuditChange(
        { status: "pending" },
        { status: "approved", kind: "kyc_reset", makerId: "x", userId: "y", reason: null },
      ),
    ).toEqual(["Status pending → approved", "Request KYC reset"]);
    expect(describeAuditChange({ frozenAt: "2026-01-01T00:00:00.000Z" }, { frozenAt: null })).toEqual([
      "Account Frozen → Not frozen",
    ]);
    expect(describeAuditChange({ staffRoles: [] }, { staffRoles: ["finance", "owner"] })).toEqual([
      "Roles None → Finance, Owner",
    ]);
  });

  it("says nothing for empty or non-object values", () => {
    expect(describeAuditChange(null, null)).toEqual([]);
    expect(describeAuditChange(undefined, "text")).toEqual([]);
  });
});
