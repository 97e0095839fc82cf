import { describe, expect, it } from "vitest";
import { KYC_MESSAGES } from "@/contract/kyc";
import { NAME_MESSAGES } from "@/contract/person-name";
import { type ApplicationForm, checkPersonalInfo, EMPTY_FORM } from "@/web/features/kyc/application-form";

const filled: ApplicationForm = {
  ...EMPTY_FORM,
  firstName: "Ada",
  lastName: "Lovelace",
  dateOfBirth: "1985-12-10",
  street: "1 Analytical Way",
  city: "Houston",
  state: "TX",
  zipCode: "77001",
  ssn: "123-45-6789",
};

describe("the Apply form's step 1, by the contract's rules", () => {
  it("takes US states, DC, territories and military codes", () => {
    for (const state of ["TX", "DC", "PR", "VI", "AP"])
      expect(checkPersonalInfo({ ...filled, state })).toBeNull();
  });

  it("refuses a code that is no US state, where the state is typed", () => {
    for (const state of ["ZZ", "FM", "UM"])
      expect(checkPersonalInfo({ ...filled, state })).toEqual({
        message: KYC_MESSAGES.stateUnknown,
        fields: ["state"],
      });
    expect(checkPersonalInfo({ ...filled, state: "T" })).toEqual({
      message: KYC_MESSAGES.stateInvalid,
      fields: ["state"],
    });
  });

  it("refuses a name mixing alphabets in a word or hiding invisible characters", () => {
    expect(checkPersonalInfo({ ...filled, firstName: "\u039d\u043e\u0435l" })).toEqual({
      message: NAME_MESSAGES.mixedScripts,
      fields: ["firstName"],
    });
    expect(checkPersonalInfo({ ...filled, lastName: "Hea\u00adth" })).toEqual({
      message: NAME_MESSAGES.invisibleCharacters,
      fields: ["lastName"],
    });
    expect(checkPersonalInfo({ ...filled, lastName: "Иванова" })).toBeNull();
  });
});
