import { describe, expect, it } from "vitest";
import { asksForReason } from "@/web/components/admin/dialog-parts";
import { ApiError } from "@/web/lib/api";

describe("asksForReason", () => {
  it("is true only for the reason_required refusal", () => {
    const asked = new ApiError(400, "A reason is required", {
      code: "VALIDATION",
      reason: "reason_required",
    });
    const other = new ApiError(409, "Waiting for approval", { code: "CONFLICT", reason: "approval_pending" });
    expect(asksForReason("PUT /api/admin/transactions/:id", asked)).toBe(true);
    expect(asksForReason("PUT /api/admin/transactions/:id", other)).toBe(false);
    expect(asksForReason("POST /api/admin/incoming-payments", new Error("offline"))).toBe(false);
  });

  it("takes only an endpoint whose contract can answer reason_required (checked by tsc)", () => {
    // @ts-expect-error: the users list never asks for a reason; the type refuses it.
    expect(asksForReason("GET /api/admin/users", new Error("offline"))).toBe(false);
  });
});
