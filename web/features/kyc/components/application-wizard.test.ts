import { describe, expect, it } from "vitest";
import { KYC_MESSAGES } from "@/contract/kyc";
import { toSubmitError } from "@/web/features/kyc/components/application-wizard";
import { ApiError } from "@/web/lib/api";

describe("a refused KYC submission, by its reason (spec: phone required, duplicate SSN)", () => {
  it("asks for a phone number on phone_number_required", () => {
    const error = new ApiError(400, "Add a phone", {
      reason: "phone_number_required",
      phoneNumberRequired: true,
    });
    expect(toSubmitError(error)).toEqual({ kind: "phone" });
  });

  it("explains the one-account rule on ssn_duplicate", () => {
    const error = new ApiError(409, "Taken", { reason: "ssn_duplicate", ssnDuplicate: true });
    expect(toSubmitError(error)).toEqual({ kind: "ssn" });
  });

  it("shows the server's message for any other refusal, and the fallback for none", () => {
    const other = new ApiError(409, "Your application is being reviewed", { reason: "kyc_not_editable" });
    expect(toSubmitError(other)).toEqual({ kind: "other", message: "Your application is being reviewed" });
    expect(toSubmitError(new Error(""))).toEqual({ kind: "other", message: KYC_MESSAGES.submitFailed });
  });
});
