import {
  type AccountType,
  type CreateKycInput,
  DOCUMENT_TYPES,
  type DocumentType,
  dateOfBirthField,
  KYC_MESSAGES,
  stateProblem,
} from "@/contract/kyc";
import { nameCharactersProblem } from "@/contract/person-name";

/** What the wizard holds while the user types: every field as text, documents as `/objects/…` paths or "". */
export type ApplicationForm = { accountType: AccountType } & Record<
  Exclude<keyof CreateKycInput, "accountType" | "address">,
  string
>;
export type TextField = Exclude<keyof ApplicationForm, "accountType" | DocumentType>;

export const EMPTY_FORM: ApplicationForm = {
  accountType: "personal",
  companyName: "",
  firstName: "",
  lastName: "",
  dateOfBirth: "",
  street: "",
  city: "",
  state: "",
  zipCode: "",
  ssn: "",
  drivingLicenseFront: "",
  drivingLicenseBack: "",
  llcDocument: "",
  einDocument: "",
};

/** Step 1 required fields; a business also names its company. */
const STEP_ONE_FIELDS: TextField[] = [
  "firstName",
  "lastName",
  "dateOfBirth",
  "street",
  "city",
  "state",
  "zipCode",
  "ssn",
];

/** Digits only, at most 9, shown 3-2-4 with dashes as the user types: "123456789" → "123-45-6789". */
export function formatSsnInput(raw: string): string {
  const digits = raw.replace(/\D/g, "").slice(0, 9);
  if (digits.length <= 3) return digits;
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}

/** Digits only, at most 5. */
export function formatZipInput(raw: string): string {
  return raw.replace(/\D/g, "").slice(0, 5);
}

/** Letters only, upper-cased, at most 2 (a US state code such as "NY"). */
export function formatStateInput(raw: string): string {
  return raw
    .replace(/[^a-z]/gi, "")
    .slice(0, 2)
    .toUpperCase();
}

export interface StepProblem<F> {
  message: string;
  fields: F[];
  /** Left empty (said as "required" under each field) rather than malformed. */
  isMissing?: boolean;
}

/** Step 1 is complete when every required field is filled and state, ZIP and SSN have their full length. */
export function checkPersonalInfo(form: ApplicationForm): StepProblem<TextField> | null {
  const required =
    form.accountType === "business" ? [...STEP_ONE_FIELDS, "companyName" as const] : STEP_ONE_FIELDS;
  const empty = required.filter((f) => !form[f].trim());
  if (empty.length > 0) return { message: KYC_MESSAGES.requiredFields, fields: empty, isMissing: true };
  // The contract's name rule: one alphabet per word, nothing invisible (what screening cannot be fooled by).
  for (const field of ["firstName", "lastName", "companyName"] as const) {
    const problem =
      field === "companyName" && form.accountType !== "business" ? null : nameCharactersProblem(form[field]);
    if (problem) return { message: problem, fields: [field] };
  }
  // The contract's own rule, so the inline message is the server's: a real date, 18 or over.
  const dateOfBirth = dateOfBirthField.safeParse(form.dateOfBirth);
  if (!dateOfBirth.success) {
    return { message: dateOfBirth.error.issues[0]!.message, fields: ["dateOfBirth"] };
  }
  const state = stateProblem(form.state);
  if (state) return { message: state, fields: ["state"] };
  if (!/^\d{5}$/.test(form.zipCode)) return { message: KYC_MESSAGES.zipInvalid, fields: ["zipCode"] };
  if (form.ssn.replace(/\D/g, "").length !== 9) return { message: KYC_MESSAGES.ssnInvalid, fields: ["ssn"] };
  return null;
}

/** Step 2: both licence sides for everyone; a business also needs its LLC and EIN documents. */
export function documentsFor(accountType: AccountType): DocumentType[] {
  return accountType === "business"
    ? [...DOCUMENT_TYPES]
    : DOCUMENT_TYPES.filter((d) => d !== "llcDocument" && d !== "einDocument");
}

export function checkDocuments(form: ApplicationForm): StepProblem<DocumentType> | null {
  const license = (["drivingLicenseFront", "drivingLicenseBack"] as const).filter((d) => !form[d]);
  if (license.length > 0) return { message: KYC_MESSAGES.licenseRequired, fields: license };
  const business = documentsFor(form.accountType).filter((d) => !form[d]);
  if (business.length > 0) return { message: KYC_MESSAGES.businessDocumentsRequired, fields: business };
  return null;
}

/** The POST /api/kyc/create body: trimmed text, SSN as digits, business fields only for a business. */
export function toCreateKycInput(form: ApplicationForm): CreateKycInput {
  const isBusiness = form.accountType === "business";
  return {
    accountType: form.accountType,
    companyName: isBusiness ? form.companyName.trim() : null,
    firstName: form.firstName.trim(),
    lastName: form.lastName.trim(),
    dateOfBirth: form.dateOfBirth.trim(),
    street: form.street.trim(),
    city: form.city.trim(),
    state: form.state,
    zipCode: form.zipCode,
    ssn: form.ssn.replace(/\D/g, ""),
    address: null,
    drivingLicenseFront: form.drivingLicenseFront || null,
    drivingLicenseBack: form.drivingLicenseBack || null,
    llcDocument: isBusiness ? form.llcDocument || null : null,
    einDocument: isBusiness ? form.einDocument || null : null,
  };
}
