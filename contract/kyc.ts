import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import type { ErrorReason } from "@/contract/error-reasons";
import { refineNameCharacters } from "@/contract/person-name";
import { isUsStateCode } from "@/contract/us-states";

/** Spec §5 and §8 texts, word for word where the spec gives them; the web shows them and the server answers with them. */
export const KYC_MESSAGES = {
  requiredFields: "Please fill in all required fields",
  licenseRequired: "Please upload both front and back of your driving license",
  businessDocumentsRequired: "Please upload all required business documents",
  fileTooLarge: "File size must be less than 10MB",
  ssnDuplicate:
    "This SSN is already linked to another account. Each person may only have one account for security and regulatory compliance.",
  phoneRequired: "Please add your phone number in Settings before applying",
  submitFailed: "Failed to submit application. Please try again.",
  stateInvalid: "State must be 2 letters",
  stateUnknown: "Enter a US state, DC or a US territory, e.g. NY or PR",
  zipInvalid: "ZIP code must be 5 digits",
  ssnInvalid: "SSN must be 9 digits",
  accountTypeInvalid: "Account type must be personal or business",
  tooLong: "Please shorten this field",
  licenseImagesOnly: "Driving license must be an image (JPEG, PNG, WebP or GIF)",
  documentImageOrPdf: "Business documents must be an image (JPEG, PNG, WebP or GIF) or a PDF",
  unsupportedFile: "Unsupported file type: upload a JPEG, PNG, WebP or GIF image, or a PDF",
  emptyFile: "The file is empty",
  documentNotFound: "Document not found: please upload it again",
  documentTypeInvalid: "Unknown document type",
  documentNotForPersonal: "LLC and EIN documents are only needed for business accounts",
  uploadExpired: "This upload link has expired: please upload the file again",
  uploadUsed: "This upload link has already been used",
  uploadInvalid: "Invalid upload link",
  uploadIncomplete: "The file was not uploaded: please upload it again",
  applicationExists: "You already have an application in progress",
  applicationApproved: "Your application has already been approved",
  noApplication: "No application found. Please submit your application first.",
  applicationLocked: "This application has already been reviewed and cannot be changed",
  submitted: "Application submitted successfully",
  dateOfBirthRequired: "Please enter your date of birth",
  dateOfBirthInvalid: "Enter your date of birth as a real date (MM/DD/YYYY)",
  dateOfBirthUnderage: "You must be 18 or older to open an account",
  dateOfBirthTooOld: "Please check your date of birth: it is more than 120 years ago",
  documentUploaded: "Document uploaded successfully",
} as const;

export const KYC_STATUSES = ["pending", "approved", "rejected"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export const ACCOUNT_REQUEST_STATUSES = ["pending", "in_review", "approved", "rejected"] as const;
export type AccountRequestStatus = (typeof ACCOUNT_REQUEST_STATUSES)[number];

export const ACCOUNT_TYPES = ["personal", "business"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const DOCUMENT_TYPES = [
  "drivingLicenseFront",
  "drivingLicenseBack",
  "llcDocument",
  "einDocument",
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Spec §9: 10 MB per file. */
export const MAX_UPLOAD_BYTES = 10_485_760;

export const IMAGE_CONTENT_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export const PDF_CONTENT_TYPE = "application/pdf";
export type StoredContentType = (typeof IMAGE_CONTENT_TYPES)[number] | typeof PDF_CONTENT_TYPE;

/** Driving licences take images only; LLC and EIN documents take images or PDF (spec §5). */
export const ACCEPTED_CONTENT_TYPES: Record<DocumentType, readonly StoredContentType[]> = {
  drivingLicenseFront: IMAGE_CONTENT_TYPES,
  drivingLicenseBack: IMAGE_CONTENT_TYPES,
  llcDocument: [...IMAGE_CONTENT_TYPES, PDF_CONTENT_TYPE],
  einDocument: [...IMAGE_CONTENT_TYPES, PDF_CONTENT_TYPE],
};

/** For `<input type="file" accept=…>`; the server sniffs the bytes whatever the browser declares. */
export const ACCEPT_ATTRIBUTE: Record<DocumentType, string> = {
  drivingLicenseFront: IMAGE_CONTENT_TYPES.join(","),
  drivingLicenseBack: IMAGE_CONTENT_TYPES.join(","),
  llcDocument: [...IMAGE_CONTENT_TYPES, PDF_CONTENT_TYPE].join(","),
  einDocument: [...IMAGE_CONTENT_TYPES, PDF_CONTENT_TYPE].join(","),
};

/** Path segment that marks a private object in an S3 URL: `…/<bucket>/.private/uploads/<id>?X-Amz-…`. */
export const PRIVATE_OBJECT_SEGMENT = ".private";
export const OBJECT_PATH_PATTERN =
  /^\/objects\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Spec §7: a storage URL containing a private path segment becomes `/objects/{path}`; an `/objects/…` path is
 * kept; anything else is returned unchanged (the server then refuses it). Prefer `objectPath` from the
 * upload answer; this exists for S3 presigned URLs.
 */
export function normaliseObjectPath(raw: string): string {
  const value = raw.trim();
  if (value.startsWith("/objects/")) return value.split(/[?#]/)[0]!;
  let pathname: string;
  try {
    pathname = new URL(value).pathname;
  } catch {
    return value;
  }
  const marker = `/${PRIVATE_OBJECT_SEGMENT}/`;
  const at = pathname.indexOf(marker);
  return at === -1 ? value : `/objects/${pathname.slice(at + marker.length)}`;
}

/** Applicants must be this old on the day they apply (CIP: identity includes the date of birth). */
export const MINIMUM_AGE_YEARS = 18;

/** `**\/**\/1987`: the date of birth as every API answers it; compliance reveals the rest, audited. */
export function maskDateOfBirth(dateOfBirth: string | null | undefined): string | null {
  return dateOfBirth ? `**/**/${dateOfBirth.slice(0, 4)}` : null;
}

/** Whole years from a YYYY-MM-DD birth date to `today` (YYYY-MM-DD): a birthday counts on its day. */
export function ageOn(dateOfBirth: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(dateOfBirth.slice(0, 4));
  return today.slice(5) >= dateOfBirth.slice(5) ? years : years - 1;
}

/** Today as YYYY-MM-DD in New York, the bank's day (the same day the transfer limits use). */
export function bankToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(now);
}

/** A calendar day that exists, written YYYY-MM-DD. */
function isRealDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const date = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(v);
}

/** The date of birth field: YYYY-MM-DD (what `<input type="date">` sends), real, 18 or over, under 120. */
export const dateOfBirthField = z
  .string({ error: KYC_MESSAGES.dateOfBirthRequired })
  .trim()
  .min(1, KYC_MESSAGES.dateOfBirthRequired)
  .max(10, KYC_MESSAGES.dateOfBirthInvalid)
  .refine(isRealDate, KYC_MESSAGES.dateOfBirthInvalid)
  .refine(
    (v) => !isRealDate(v) || ageOn(v, bankToday()) >= MINIMUM_AGE_YEARS,
    KYC_MESSAGES.dateOfBirthUnderage,
  )
  .refine((v) => !isRealDate(v) || ageOn(v, bankToday()) <= 120, KYC_MESSAGES.dateOfBirthTooOld);

/** `***-**-1234`: the only form of an SSN any API returns. */
export function maskSsn(last4: string): string {
  return `***-**-${last4}`;
}

// ---------------------------------------------------------------------------------------------------------
// POST /api/objects/upload  (no body; an optional JSON `{ documentType }` is accepted and ignored for routing)

export const createUploadInput = z
  .object({ documentType: z.enum(DOCUMENT_TYPES, { error: KYC_MESSAGES.documentTypeInvalid }).optional() })
  .nullish();
export type CreateUploadInput = z.infer<typeof createUploadInput>;

/**
 * `uploadURL`: PUT the raw file there with its content type (local: `/api/objects/upload/<token>`, same-origin,
 * with the session cookie; S3: a presigned URL). `objectPath`: the `/objects/uploads/<id>` to send as the
 * document's value. Both expire at `expiresAt` (15 minutes).
 */
export const createUploadResponse = z.object({
  uploadURL: z.string(),
  objectPath: z.string(),
  method: z.literal("PUT"),
  expiresAt: z.string(),
  maxBytes: z.number().int(),
});
export type CreateUploadResponse = z.infer<typeof createUploadResponse>;

/** PUT /api/objects/upload/<token> answer (local back end only). `contentType` is the sniffed type. */
export const completeUploadResponse = z.object({
  objectPath: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
export type CompleteUploadResponse = z.infer<typeof completeUploadResponse>;

// ---------------------------------------------------------------------------------------------------------
// POST /api/kyc/create

/** Why a state as typed (upper-cased) is refused, or null: 2 letters, and a US state, DC or territory. */
export function stateProblem(state: string): string | null {
  if (!/^[A-Z]{2}$/.test(state)) return KYC_MESSAGES.stateInvalid;
  return isUsStateCode(state) ? null : KYC_MESSAGES.stateUnknown;
}

function refineState(state: string, ctx: z.RefinementCtx): void {
  const problem = stateProblem(state);
  if (problem)
    ctx.addIssue({
      code: "custom",
      message: problem,
      params: { reason: "state_invalid" satisfies ErrorReason },
    });
}

const requiredText = (max: number) =>
  z
    .string({ error: KYC_MESSAGES.requiredFields })
    .trim()
    .min(1, KYC_MESSAGES.requiredFields)
    .max(max, KYC_MESSAGES.tooLong);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, KYC_MESSAGES.tooLong)
    .nullish()
    .transform((v) => (v ? v : null));

/** A document value: `/objects/uploads/<id>` (or an S3 URL with the private segment, normalised). */
const documentRef = z
  .string()
  .trim()
  .max(2048, KYC_MESSAGES.documentNotFound)
  .nullish()
  .transform((v) => (v ? normaliseObjectPath(v) : null));

export const createKycInput = z.preprocess(
  (v) => v ?? {},
  z
    .object({
      accountType: z.enum(ACCOUNT_TYPES, { error: KYC_MESSAGES.accountTypeInvalid }).default("personal"),
      companyName: optionalText(200).superRefine(refineNameCharacters),
      firstName: requiredText(100).superRefine(refineNameCharacters),
      lastName: requiredText(100).superRefine(refineNameCharacters),
      dateOfBirth: dateOfBirthField,
      street: requiredText(200),
      city: requiredText(100),
      state: requiredText(20)
        .transform((v) => v.toUpperCase())
        .superRefine(refineState),
      zipCode: requiredText(10).pipe(z.string().regex(/^\d{5}$/, KYC_MESSAGES.zipInvalid)),
      /** 9 digits, with or without the 3-2-4 dashes. */
      ssn: requiredText(20)
        .transform((v) => v.replace(/[\s-]/g, ""))
        .pipe(z.string().regex(/^\d{9}$/, KYC_MESSAGES.ssnInvalid)),
      /** The spec's one-line address: accepted and ignored; the server builds it from street, city, state and ZIP. */
      address: optionalText(400),
      drivingLicenseFront: documentRef,
      drivingLicenseBack: documentRef,
      llcDocument: documentRef,
      einDocument: documentRef,
    })
    .superRefine((v, ctx) => {
      if (v.accountType === "business" && !v.companyName) {
        ctx.addIssue({ code: "custom", path: ["companyName"], message: KYC_MESSAGES.requiredFields });
        return;
      }
      if (!v.drivingLicenseFront || !v.drivingLicenseBack) {
        ctx.addIssue({
          code: "custom",
          path: ["drivingLicenseFront"],
          message: KYC_MESSAGES.licenseRequired,
        });
        return;
      }
      if (v.accountType === "business" && (!v.llcDocument || !v.einDocument)) {
        ctx.addIssue({
          code: "custom",
          path: ["llcDocument"],
          message: KYC_MESSAGES.businessDocumentsRequired,
        });
      }
    }),
);
export type CreateKycInput = z.infer<typeof createKycInput>;
/** What the form holds before parsing (all strings). */
export type CreateKycForm = z.input<typeof createKycInput>;

// ---------------------------------------------------------------------------------------------------------
// POST /api/kyc/upload-document

export const uploadDocumentInput = z.object({
  documentType: z.enum(DOCUMENT_TYPES, { error: KYC_MESSAGES.documentTypeInvalid }),
  documentUrl: z
    .string({ error: KYC_MESSAGES.documentNotFound })
    .trim()
    .min(1, KYC_MESSAGES.documentNotFound)
    .max(2048, KYC_MESSAGES.documentNotFound)
    .transform(normaliseObjectPath),
});
export type UploadDocumentInput = z.infer<typeof uploadDocumentInput>;

// ---------------------------------------------------------------------------------------------------------
// Shapes the user sees (GET /api/kyc/status and the answers above). Dates are ISO strings.

export const kycApplication = z.object({
  id: z.string(),
  userId: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  companyName: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  address: z.string(),
  /** Always masked: `***-**-1234`. */
  ssn: z.string(),
  /** Always masked: `**\/**\/1987`; null on applications made before it was asked. */
  dateOfBirth: z.string().nullable(),
  /** `/objects/uploads/<id>` paths, or null. */
  drivingLicenseFront: z.string().nullable(),
  drivingLicenseBack: z.string().nullable(),
  llcDocument: z.string().nullable(),
  einDocument: z.string().nullable(),
  status: z.enum(KYC_STATUSES),
  /** The reviewer's note to the applicant (the rejection reason when rejected). */
  adminNotes: z.string().nullable(),
  submittedAt: z.string(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type KycApplication = z.infer<typeof kycApplication>;

/** The customer's view of an account request; internal `adminNotes` are admin-only. */
export const accountRequest = z.object({
  id: z.string(),
  userId: z.string(),
  kycApplicationId: z.string().nullable(),
  accountType: z.enum(ACCOUNT_TYPES),
  status: z.enum(ACCOUNT_REQUEST_STATUSES),
  statusMessage: z.string().nullable(),
  accountNumber: z.string().nullable(),
  routingNumber: z.string().nullable(),
  approvedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AccountRequest = z.infer<typeof accountRequest>;

/** GET /api/kyc/status: the current (newest) application and account request; each null when there is none. */
export const kycStatusResponse = z.object({
  kyc: kycApplication.nullable(),
  accountRequest: accountRequest.nullable(),
});
export type KycStatusResponse = z.infer<typeof kycStatusResponse>;

export const createKycResponse = z.object({
  message: z.string(),
  kyc: kycApplication,
  accountRequest: accountRequest,
});
export type CreateKycResponse = z.infer<typeof createKycResponse>;

export const uploadDocumentResponse = z.object({ message: z.string(), kyc: kycApplication });
export type UploadDocumentResponse = z.infer<typeof uploadDocumentResponse>;

/** A new application is allowed when there is none, or the current KYC or account request was rejected. */
export function canApply(status: {
  kyc: { status: KycStatus } | null;
  accountRequest: { status: AccountRequestStatus } | null;
}): boolean {
  return !status.kyc || status.kyc.status === "rejected" || status.accountRequest?.status === "rejected";
}

/**
 * Error flags the KYC calls can carry besides `{ message, code }`:
 * `phoneNumberRequired` (400, no phone on the account), `ssnDuplicate` (409), `applicationExists` (409),
 * `kycNotEditable` (409 on upload-document when the current application is not pending; safe to ignore).
 */
export type KycErrorFlags = {
  phoneNumberRequired?: true;
  ssnDuplicate?: true;
  applicationExists?: true;
  kycNotEditable?: true;
};

/**
 * One customer's onboarding as the dashboard's timeline shows it (identity check → account opened), for the
 * customer and for the admin's dashboard preview. No SSN, documents or full account number: the preview
 * must not become a way to read them.
 */
export const onboardingState = z.object({
  kyc: z
    .object({
      status: z.enum(KYC_STATUSES),
      /** The reviewer's note to the applicant: the rejection reason when rejected. */
      adminNotes: z.string().nullable(),
      submittedAt: z.string(),
      reviewedAt: z.string().nullable(),
    })
    .nullable(),
  accountRequest: z
    .object({
      accountType: z.enum(ACCOUNT_TYPES),
      status: z.enum(ACCOUNT_REQUEST_STATUSES),
      statusMessage: z.string().nullable(),
      accountNumberLast4: z.string().nullable(),
      createdAt: z.string(),
      approvedAt: z.string().nullable(),
    })
    .nullable(),
});
export type OnboardingState = z.infer<typeof onboardingState>;

/**
 * The signed-in customer's own application. Staff never bank: creating and adding a document refuse them
 * (403 staff_account) before the body is validated, as creating does a customer without a phone number.
 */
export const KYC_ENDPOINTS = endpoints({
  "GET /api/kyc/status": { access: "user", replies: { 200: kycStatusResponse } },
  "POST /api/kyc/create": {
    access: "user",
    body: createKycInput,
    replies: { 200: createKycResponse },
    errors: [
      "staff_account",
      "phone_number_required",
      "application_exists",
      "ssn_duplicate",
      "name_characters_invalid",
      "state_invalid",
      "BAD_REQUEST",
      "NOT_FOUND",
      "UNSUPPORTED_MEDIA_TYPE",
    ],
    limit: { perMinute: 20, by: "user", bucket: "kyc-create" },
  },
  "POST /api/kyc/upload-document": {
    access: "user",
    body: uploadDocumentInput,
    replies: { 200: uploadDocumentResponse },
    errors: ["staff_account", "kyc_not_editable", "BAD_REQUEST", "NOT_FOUND", "UNSUPPORTED_MEDIA_TYPE"],
    limit: { perMinute: 30, by: "user", bucket: "kyc-upload-document" },
  },
});
