import { z } from "zod";
import { RULE_NAMES } from "@/contract/monitoring";
import { pageOf, pageQueryWithStatus } from "@/contract/pages";

/** SANCTIONS_NAME_THRESHOLD's default: precision and recall at it are in bench/SCREENING.md. */
export const DEFAULT_SANCTIONS_NAME_THRESHOLD = 0.88;

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
  decisionNotFound: "Decision not found",
  decisionPending: "A decision on this case already waits for a second compliance member",
  decisionDecided: "This decision was already approved or rejected",
  selfCheck: "You proposed this decision: a second compliance member must approve or reject it",
  decisionProposed: "Decision proposed. A second compliance member must approve it.",
  decisionApproved: "Decision approved and applied",
  decisionRejected: "Decision rejected: the case stays open",
  assigneeNotCompliance: "Assign the case to a staff member who holds the compliance role",
  commentRequired: `Write a comment of 1 to ${4000} characters`,
  narrativeTooLong: `The narrative can be at most ${20000} characters`,
  titleRequired: "Give the document a title of 1 to 200 characters",
  documentNotFound: "Upload the file first: the document was not found among your uploads",
  documentType: "Attach an image (JPEG, PNG, WebP) or a PDF",
  linkNoteRequired: "Say in 3 to 500 characters how the customers are related",
  linkedCustomerNotFound: "No customer with that e-mail address or id",
  linkSelf: "The case's own customer cannot be linked to it",
  linkDuplicate: "This customer is already linked to the case",
  unstorableText: "Text must not contain NUL or invalid characters",
  customerGone: "The customer's account was deleted: the case can only be cleared or filed",
  liftNotRestricted: "Only a restricted case's restriction can be lifted",
  /** Decision 048: rejecting or blocking names one held transfer of the case's customer. */
  transferRequired: "Choose the held transfer this decision is about",
  transferNotForDecision: "Only a decision to reject or block a transfer names a transfer",
  transferNotHeld:
    "That transfer is not held under this case: it is not the customer's, or it has already settled",
  transferSettledMeanwhile:
    "The transfer settled after this decision was proposed: nothing was changed; propose a new decision",
  /** The checker's reason when rejecting a proposal (issue 46). */
  checkerReasonRequired: "Say in 3 to 2000 characters why you reject this proposal",
  /** 409 complianceHold to staff: a transfer of a customer with an open or confirmed case does not move. */
  complianceHold:
    "This transfer is held for a compliance review and cannot be released until compliance clears it",
  /** 409 complianceHold to staff cancelling or failing a held transfer: returning it is the case's decision. */
  complianceHoldNoReturn:
    "This transfer is held for a compliance review: compliance rejects it (money back) or blocks it on the case, so it cannot be cancelled here",
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
  "deposit",
] as const;
export type ScreeningPoint = (typeof SCREENING_POINTS)[number];

/** `confirmed`: cases decided before decision 032 (a true match, money held). */
export const CASE_STATUSES = ["open", "cleared", "confirmed", "restricted", "frozen", "filed"] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/**
 * Decision 032. clear: a false positive, the held money moves on; restrict: no money leaves the account
 * (can_send_money closes); freeze: the existing account freeze; file: a suspicious activity report is filed.
 * Each is proposed by one compliance member and applied only when a second approves it.
 */
export const CASE_DECISIONS = ["clear", "restrict", "freeze", "file"] as const;
export type CaseDecision = (typeof CASE_DECISIONS)[number];
/**
 * Decision 039: lift ends a restriction (a restricted case only); like a clear it releases what the case held.
 * Also proposed by one member and approved by another.
 */
/**
 * Decision 048: a payment to a listed person is blocked, not returned. reject_transfer cancels one held transfer
 * (its money back to the customer); block_transfer moves its money to blocked property. Either is reported to
 * OFAC within BLOCKED_REPORT_BUSINESS_DAYS, and neither changes the case's status. Releasing is the case's clear.
 */
export const TRANSFER_DECISIONS = ["reject_transfer", "block_transfer"] as const;
export type TransferDecision = (typeof TRANSFER_DECISIONS)[number];
export const isTransferDecision = (d: string): d is TransferDecision =>
  (TRANSFER_DECISIONS as readonly string[]).includes(d);
export const DECISION_KINDS = [...CASE_DECISIONS, "lift", ...TRANSFER_DECISIONS] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];
/** OFAC's deadline for a blocked or rejected transaction report (31 CFR 501.603, 501.604). */
export const BLOCKED_REPORT_BUSINESS_DAYS = 10;
/** What an approved decision leaves the case as (a transfer decision leaves it as it was). */
export const CASE_OUTCOME: Record<
  Exclude<DecisionKind, TransferDecision>,
  Exclude<CaseStatus, "open" | "confirmed">
> = {
  clear: "cleared",
  restrict: "restricted",
  freeze: "frozen",
  file: "filed",
  lift: "cleared",
};
/** Days from first detection to the report's deadline (a SAR is due 30 days after the first detection). */
export const REPORT_DEADLINE_DAYS = 30;
export const MAX_COMMENT_CHARS = 4000;
export const MAX_NARRATIVE_CHARS = 20000;

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
  /** The USDC deposit whose sender the hit found (its money waits under the case). */
  depositId: z.string().nullable(),
  createdAt: z.string(),
});
export type ComplianceHit = z.infer<typeof complianceHit>;

/** PostgreSQL's text cannot hold a NUL: refused with the same words the text guard uses for lone surrogates. */
const storable = (v: string) => !v.includes(String.fromCharCode(0));

const person = z.object({ id: z.string(), email: z.string().nullable() });

export const complianceCase = z.object({
  id: z.string(),
  status: z.enum(CASE_STATUSES),
  customer: z
    .object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() })
    .nullable(),
  hitCount: z.number().int(),
  /** Transaction-monitoring alerts filed on the case (decision 031). */
  alertCount: z.number().int(),
  /** Pending transfers of this customer, held while the case holds (open, or decided anything but clear). */
  heldTransfers: z.number().int(),
  /** USDC deposits booked under this case with their money on hold (decision 039). */
  heldDeposits: z.number().int(),
  assignee: person.nullable(),
  openedAt: z.string(),
  /** First detection + REPORT_DEADLINE_DAYS: the clock every open case shows. */
  reportDueAt: z.string(),
  /** A decision waits for its second compliance member. */
  pendingDecision: z.enum(DECISION_KINDS).nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
});
export type ComplianceCase = z.infer<typeof complianceCase>;
export const complianceCasePage = pageOf(complianceCase);
export const casesQuery = pageQueryWithStatus(CASE_STATUSES, "open");
export type CasesQuery = z.infer<typeof casesQuery>;

export const caseComment = z.object({
  id: z.string(),
  author: person.nullable(),
  body: z.string(),
  createdAt: z.string(),
});
export const caseDocument = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  contentType: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  addedBy: person.nullable(),
  createdAt: z.string(),
});
export const caseLink = z.object({
  customer: z.object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() }),
  note: z.string(),
  addedBy: person.nullable(),
  createdAt: z.string(),
});
export const caseDecisionRow = z.object({
  id: z.string(),
  decision: z.enum(DECISION_KINDS),
  note: z.string(),
  status: z.enum(["pending", "approved", "rejected"]),
  maker: person.nullable(),
  checker: person.nullable(),
  checkerNote: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The held transfer a reject_transfer or block_transfer decides. */
  transferId: z.string().nullable(),
  /** An approved reject or block: the New York day its OFAC report is due (YYYY-MM-DD). */
  reportDueOn: z.string().nullable(),
});
export type CaseDecisionRow = z.infer<typeof caseDecisionRow>;

/** A transfer of the case's customer that the case holds: what the case page lists and a decision may name. */
export const heldTransfer = z.object({
  id: z.string(),
  amountCents: z.number().int(),
  formattedAmount: z.string(),
  recipientName: z.string(),
  cryptoAddress: z.string(),
  status: z.enum(["pending", "processing"]),
  createdAt: z.string(),
});
export type HeldTransfer = z.infer<typeof heldTransfer>;

export const complianceCaseDetail = complianceCase.extend({
  narrative: z.string(),
  /** The transfers heldTransfers counts, oldest first (at most 100). */
  transfers: z.array(heldTransfer),
  hits: z.array(complianceHit),
  comments: z.array(caseComment),
  documents: z.array(caseDocument),
  links: z.array(caseLink),
  decisions: z.array(caseDecisionRow),
});
export type ComplianceCaseDetail = z.infer<typeof complianceCaseDetail>;

export const caseIdParams = z.object({ id: z.uuid({ error: COMPLIANCE_MESSAGES.caseNotFound }) });
export const caseDecisionParams = caseIdParams.extend({
  decisionId: z.uuid({ error: COMPLIANCE_MESSAGES.decisionNotFound }),
});

const note = z
  .string({ error: COMPLIANCE_MESSAGES.noteRequired })
  .trim()
  .refine(storable, COMPLIANCE_MESSAGES.unstorableText)
  .min(3, COMPLIANCE_MESSAGES.noteRequired)
  .max(2000, COMPLIANCE_MESSAGES.noteRequired);

/** POST /api/admin/compliance/cases/{id}/decisions: a proposal, applied when a second member approves it. */
export const proposeDecisionInput = z.object({
  decision: z.enum(DECISION_KINDS, {
    error: "Decision must be clear, restrict, freeze, file, lift, reject_transfer or block_transfer",
  }),
  note,
  /** Required for reject_transfer and block_transfer, refused for the others. */
  transferId: z.uuid({ error: COMPLIANCE_MESSAGES.transferNotHeld }).optional(),
});
export type ProposeDecisionInput = z.infer<typeof proposeDecisionInput>;
/** POST …/decisions/{decisionId}/approve or /reject: the note is optional to approve, required to reject. */
export const checkDecisionInput = z.object({
  note: z
    .string()
    .trim()
    .refine(storable, COMPLIANCE_MESSAGES.unstorableText)
    .max(2000, COMPLIANCE_MESSAGES.noteRequired)
    .optional(),
});
export type CheckDecisionInput = z.infer<typeof checkDecisionInput>;
export const caseActionResponse = z.object({ message: z.string(), case: complianceCaseDetail });
export type CaseActionResponse = z.infer<typeof caseActionResponse>;

export const assignCaseInput = z.object({
  assigneeId: z.uuid({ error: COMPLIANCE_MESSAGES.assigneeNotCompliance }).nullable(),
});
export const commentInput = z.object({
  body: z
    .string({ error: COMPLIANCE_MESSAGES.commentRequired })
    .trim()
    .refine(storable, COMPLIANCE_MESSAGES.unstorableText)
    .min(1, COMPLIANCE_MESSAGES.commentRequired)
    .max(MAX_COMMENT_CHARS, COMPLIANCE_MESSAGES.commentRequired),
});
export const narrativeInput = z.object({
  narrative: z
    .string({ error: COMPLIANCE_MESSAGES.narrativeTooLong })
    .refine(storable, COMPLIANCE_MESSAGES.unstorableText)
    .max(MAX_NARRATIVE_CHARS, COMPLIANCE_MESSAGES.narrativeTooLong),
});
export const attachDocumentInput = z.object({
  /** The object path /api/objects/upload answered, uploaded by the staff member attaching it. */
  documentUrl: z
    .string({ error: COMPLIANCE_MESSAGES.documentNotFound })
    .max(300, COMPLIANCE_MESSAGES.documentNotFound),
  title: z
    .string({ error: COMPLIANCE_MESSAGES.titleRequired })
    .trim()
    .refine(storable, COMPLIANCE_MESSAGES.unstorableText)
    .min(1, COMPLIANCE_MESSAGES.titleRequired)
    .max(200, COMPLIANCE_MESSAGES.titleRequired),
});
export const linkCustomerInput = z.object({
  /** An e-mail address or a user id. */
  customer: z
    .string({ error: COMPLIANCE_MESSAGES.linkedCustomerNotFound })
    .trim()
    .refine(storable, COMPLIANCE_MESSAGES.unstorableText)
    .min(1, COMPLIANCE_MESSAGES.linkedCustomerNotFound)
    .max(320, COMPLIANCE_MESSAGES.linkedCustomerNotFound),
  note: z
    .string({ error: COMPLIANCE_MESSAGES.linkNoteRequired })
    .trim()
    .refine(storable, COMPLIANCE_MESSAGES.unstorableText)
    .min(3, COMPLIANCE_MESSAGES.linkNoteRequired)
    .max(500, COMPLIANCE_MESSAGES.linkNoteRequired),
});

/** GET /api/admin/compliance/members: who a case can be assigned to. */
export const complianceMembers = z.object({
  items: z.array(z.object({ id: z.string(), email: z.string() })),
});

/** GET /api/admin/compliance/cases/{id}/report.json: the SAR-style draft (the PDF shows the same). */
export const sarDraft = z.object({
  caseId: z.string(),
  status: z.enum(CASE_STATUSES),
  filed: z.boolean(),
  generatedAt: z.string(),
  firstDetectedAt: z.string(),
  reportDueAt: z.string(),
  subject: z
    .object({
      id: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      dateOfBirth: z.string().nullable(),
      address: z.string().nullable(),
      accountNumber: z.string().nullable(),
    })
    .nullable(),
  activity: z.object({
    from: z.string().nullable(),
    to: z.string().nullable(),
    /** Dollars, as the rest of the API writes money. */
    totalAmount: z.string(),
    transfers: z.array(
      z.object({
        id: z.string(),
        createdAt: z.string(),
        amount: z.string(),
        status: z.string(),
        recipientName: z.string(),
        cryptoAddress: z.string().nullable(),
      }),
    ),
    /** Credits and deposits the evidence names (or, without any named, those of the period), in dollars. */
    moneyInTotal: z.string(),
    moneyIn: z.array(
      z.object({
        id: z.string(),
        createdAt: z.string(),
        amount: z.string(),
        status: z.string(),
        description: z.string(),
      }),
    ),
  }),
  /** Sanctions hits and monitoring alerts on the case, oldest first. */
  evidence: z.array(
    z.discriminatedUnion("kind", [
      z.object({
        kind: z.literal("sanctions_hit"),
        detectedAt: z.string(),
        screeningPoint: z.string(),
        subject: z.string(),
        matched: z.string(),
        score: z.number(),
        list: z.string(),
      }),
      z.object({
        kind: z.literal("monitoring_alert"),
        detectedAt: z.string(),
        alertId: z.string(),
        rule: z.enum(RULE_NAMES),
        ruleLabel: z.string(),
        score: z.number(),
        blocking: z.boolean(),
        eventKind: z.enum(["credit", "deposit", "transfer"]),
        eventId: z.string(),
        /** What the rule saw, as it recorded it. */
        details: z.record(z.string(), z.unknown()),
        /** The same in one line, amounts in dollars: what the PDF prints. */
        summary: z.string(),
      }),
    ]),
  ),
  relatedCustomers: z.array(z.object({ id: z.string(), email: z.string(), note: z.string() })),
  narrative: z.string(),
  decision: z
    .object({
      maker: z.string().nullable(),
      checker: z.string().nullable(),
      note: z.string(),
      decidedAt: z.string(),
    })
    .nullable(),
});
export type SarDraft = z.infer<typeof sarDraft>;
