import { z } from "zod";
import { pageOf, pageQueryWithStatus } from "@/contract/pages";

/** SANCTIONS_NAME_THRESHOLD's default: precision and recall at it are in bench/SCREENING.md. */
export const DEFAULT_SANCTIONS_NAME_THRESHOLD = 0.9;

export const COMPLIANCE_MESSAGES = {
  listRejected: "The list was not loaded and the previous version stays active.",
  unknownFile: (name: string) =>
    `Unknown file "${name.slice(0, 80)}": upload SDN.CSV, ALT.CSV, ADD.CSV, CONS_PRIM.CSV, CONS_ALT.CSV or CONS_ADD.CSV`,
  duplicateFile: (name: string) => `${name} was given twice`,
  noFiles: "Choose OFAC's files to load (at least SDN.CSV or CONS_PRIM.CSV)",
  notBase64: "A file's content must be base64",
  uploadTooLarge: "The files are larger than 40 MB together: load them with the CLI instead",
  caseNotFound: "Case not found",
  caseDecided: "This case has already been decided",
  noteRequired: "Write a note of 3 to 2000 characters explaining the decision",
  /** 409 complianceHold to staff: a transfer of a customer with an open or confirmed case does not move. */
  complianceHold:
    "This transfer is held for a compliance review and cannot be released until compliance clears it",
  /** 409 complianceCaseOpen on KYC approval. */
  caseOpenOnKyc: "This customer has an open compliance case: decide it before approving the identity check",
} as const;

/** Compressed uploads are not accepted; 40 MB holds SDN, ALT, ADD and the consolidated files several times over. */
export const MAX_LIST_UPLOAD_BYTES = 40 * 1024 * 1024;

export const SCREENING_POINTS = [
  "signup",
  "kyc",
  "recipient",
  "transfer",
  "transfer_approval",
  "payout_signing",
  "rescreen",
] as const;
export type ScreeningPoint = (typeof SCREENING_POINTS)[number];

export const CASE_STATUSES = ["open", "cleared", "confirmed"] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** clear: a false positive, the held money moves on; confirm: a true match, nothing leaves the account. */
export const CASE_DECISIONS = ["clear", "confirm"] as const;
export type CaseDecision = (typeof CASE_DECISIONS)[number];

export const sanctionsListVersion = z.object({
  id: z.string(),
  version: z.number().int(),
  source: z.enum(["cli", "upload"]),
  files: z.array(z.object({ name: z.string(), sha256: z.string(), bytes: z.number(), records: z.number() })),
  entryCount: z.number().int(),
  nameCount: z.number().int(),
  addressCount: z.number().int(),
  isActive: z.boolean(),
  loadedAt: z.string(),
  rescreenedAt: z.string().nullable(),
});
export type SanctionsListVersion = z.infer<typeof sanctionsListVersion>;
export const sanctionsListVersions = z.object({ items: z.array(sanctionsListVersion) });

/** POST /api/admin/compliance/lists: OFAC's files as bytes (base64), so no decoding happens in the browser. */
export const uploadListInput = z.object({
  files: z
    .array(
      z.object({
        name: z.string().trim().min(1).max(100),
        contentBase64: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, COMPLIANCE_MESSAGES.notBase64),
      }),
      { error: COMPLIANCE_MESSAGES.noFiles },
    )
    .min(1, COMPLIANCE_MESSAGES.noFiles)
    .max(6, COMPLIANCE_MESSAGES.noFiles),
});
export type UploadListInput = z.infer<typeof uploadListInput>;
export const uploadListResponse = z.object({
  message: z.string(),
  list: sanctionsListVersion,
  rescreen: z.object({ customers: z.number().int(), addresses: z.number().int(), newHits: z.number().int() }),
});
export type UploadListResponse = z.infer<typeof uploadListResponse>;

export const complianceHit = z.object({
  id: z.string(),
  screeningPoint: z.enum(SCREENING_POINTS),
  subjectType: z.enum(["name", "address"]),
  subject: z.string(),
  matched: z.string(),
  score: z.number(),
  listVersion: z.number().int(),
  listSource: z.string(),
  entNum: z.number().int(),
  programs: z.string(),
  transferId: z.string().nullable(),
  createdAt: z.string(),
});
export type ComplianceHit = z.infer<typeof complianceHit>;

export const complianceCase = z.object({
  id: z.string(),
  status: z.enum(CASE_STATUSES),
  customer: z
    .object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() })
    .nullable(),
  hitCount: z.number().int(),
  /** Pending transfers of this customer, held while the case is open. */
  heldTransfers: z.number().int(),
  openedAt: z.string(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
});
export type ComplianceCase = z.infer<typeof complianceCase>;
export const complianceCasePage = pageOf(complianceCase);
export const casesQuery = pageQueryWithStatus(CASE_STATUSES, "open");
export type CasesQuery = z.infer<typeof casesQuery>;

export const complianceCaseDetail = complianceCase.extend({ hits: z.array(complianceHit) });
export type ComplianceCaseDetail = z.infer<typeof complianceCaseDetail>;

export const caseIdParams = z.object({ id: z.uuid({ error: COMPLIANCE_MESSAGES.caseNotFound }) });

export const decideCaseInput = z.object({
  decision: z.enum(CASE_DECISIONS, { error: "Decision must be clear or confirm" }),
  note: z
    .string({ error: COMPLIANCE_MESSAGES.noteRequired })
    .trim()
    .min(3, COMPLIANCE_MESSAGES.noteRequired)
    .max(2000, COMPLIANCE_MESSAGES.noteRequired),
});
export type DecideCaseInput = z.infer<typeof decideCaseInput>;
