import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { MONEY_EVENT_KINDS, RULE_NAMES } from "@/contract/monitoring";
import { pageOf, pageQueryWithStatus } from "@/contract/pages";
import { isUsStateCode } from "@/contract/us-states";

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
  /** The checker's reason when rejecting a proposal. */
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

/**
 * Why a listed name scored what it did (decision 053): how alike the names are spelled and sound, what the dates of
 * birth said and added, the listed entry's type and whether the listed name is a weak alias. What the hit card
 * and the staff list search show.
 */
export const hitScoreParts = z.object({
  name: z.number(),
  phonetic: z.number(),
  dob: z.enum(["exact", "near", "far", "unknown"]),
  dobAdjustment: z.number(),
  listedType: z.string(),
  weakAlias: z.boolean(),
});
export type HitScoreParts = z.infer<typeof hitScoreParts>;

/** A re-screen of every customer against one list version, run in batches by the jobs room (decision 053). */
export const rescreenRunView = z.object({
  id: z.string(),
  listId: z.string(),
  listVersion: z.number().int(),
  status: z.enum(["queued", "running", "done", "superseded"]),
  /** Customers to screen, counted when the run started (null while queued). */
  total: z.number().int().nullable(),
  customers: z.number().int(),
  addresses: z.number().int(),
  newHits: z.number().int(),
  queuedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type RescreenRunView = z.infer<typeof rescreenRunView>;

export const SEARCH_MESSAGES = {
  nameRequired: "Type a name of 1 to 200 characters",
  dob: "Date of birth must be a real date written YYYY-MM-DD, or left empty",
  type: 'Type must be "person", "entity" or empty',
  minScore: "The lowest score must be a number from 0.7 to 1",
  noList: "No sanctions list is loaded yet: load OFAC's files first",
} as const;
/** The lowest score a staff search may ask for: below it the matches are noise. */
export const MIN_SEARCH_SCORE = 0.7;
export const MAX_SEARCH_MATCHES = 50;

const realDate = (v: string) => {
  const [y, m, d] = v.split("-").map(Number);
  const date = new Date(Date.UTC(y!, m! - 1, d!));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m! - 1 && date.getUTCDate() === d;
};

/** POST /api/admin/compliance/search and each line of `cli sanctions:search`: one name, as a screening point sees it. */
export const listSearchInput = z.object({
  name: z
    .string({ error: SEARCH_MESSAGES.nameRequired })
    .trim()
    .refine((v) => !v.includes(String.fromCharCode(0)), "Text must not contain NUL or invalid characters")
    .pipe(z.string().min(1, SEARCH_MESSAGES.nameRequired).max(200, SEARCH_MESSAGES.nameRequired)),
  dob: z
    .string({ error: SEARCH_MESSAGES.dob })
    .regex(/^\d{4}-\d{2}-\d{2}$/, SEARCH_MESSAGES.dob)
    .refine(realDate, SEARCH_MESSAGES.dob)
    .nullable()
    .optional(),
  type: z.enum(["person", "entity"], { error: SEARCH_MESSAGES.type }).nullable().optional(),
  minScore: z
    .number({ error: SEARCH_MESSAGES.minScore })
    .min(MIN_SEARCH_SCORE, SEARCH_MESSAGES.minScore)
    .max(1, SEARCH_MESSAGES.minScore)
    .optional(),
});
export type ListSearchInput = z.infer<typeof listSearchInput>;
export const listSearchMatch = z.object({
  source: z.string(),
  entNum: z.number().int(),
  listedName: z.string(),
  primaryName: z.string(),
  /** OFAC's type: individual, entity, vessel, aircraft. */
  type: z.string(),
  programs: z.string(),
  birthDates: z.array(z.string()),
  score: z.number(),
  parts: hitScoreParts,
});
export type ListSearchMatch = z.infer<typeof listSearchMatch>;
export const listSearchResponse = z.object({
  listVersion: z.number().int(),
  threshold: z.number(),
  matches: z.array(listSearchMatch),
  /** More matched than the MAX_SEARCH_MATCHES shown. */
  truncated: z.boolean(),
});
export type ListSearchResponse = z.infer<typeof listSearchResponse>;

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
export const sanctionsListVersions = z.object({
  items: z.array(sanctionsListVersion),
  /** The latest re-screen runs, newest first: the lists page shows their progress and polls while one runs. */
  rescreens: z.array(rescreenRunView),
});

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
  /** The re-screen the load queued: the jobs room runs it (GET …/rescreens shows its progress). */
  rescreen: rescreenRunView,
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
  /** Why the name scored what it did; null for an address and for hits filed before decision 053. */
  scoreParts: hitScoreParts.nullable(),
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
        eventKind: z.enum(MONEY_EVENT_KINDS),
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

// --- Reports a regulator asks for (decision 055) ------------------------------------------------------------

export const REPORT_MESSAGES = {
  priorReportRequired: "A continuing or corrected report names the prior report's BSA ID (14 digits)",
  priorReportInvalid: "A prior report's BSA ID is 14 digits (all zeros when it is not known)",
  priorReportNotForInitial: "An initial report names no prior report",
  priorFiledOnRequired: "A continuing report gives the day the prior report was filed",
  dateInvalid: "Enter a real date as YYYY-MM-DD",
  categoryUnknown: "Choose suspicious-activity categories from the list",
  otherCategoryRequired: "Describe the other suspicious activity in 1 to 50 characters",
  idNumberInvalid: "An ID number is 1 to 25 letters, digits or hyphens",
  idTypeRequired: "Choose the ID document's type before its number",
  idOtherTypeRequired: "Name the other ID document in 1 to 50 characters",
  stateInvalid: "Enter a US state as two letters, e.g. NY",
  countryInvalid: "Enter a country as its two-letter ISO code, e.g. US",
  occupationTooLong: "Occupation can be at most 50 characters",
  sarSaved: "Report details saved",
  sarNotReady: "The SAR cannot be exported yet",
  reportNotFound: "Report not found",
  reportFiled: "This report was already marked filed",
  reportMarkedFiled: "Report marked filed",
  referenceRequired: "Give OFAC's reference (or your submission's) in 3 to 100 characters",
  filedOnInvalid:
    "The filing day must be a real date, on or after the block or rejection and not in the future",
  yearInvalid: "Choose a year from 2000 to this year",
} as const;

export const SAR_FILING_TYPES = ["initial", "continuing", "correction"] as const;
export type SarFilingType = (typeof SAR_FILING_TYPES)[number];
export const SAR_FILING_TYPE_LABELS: Record<SarFilingType, string> = {
  initial: "Initial report",
  continuing: "Continuing activity report",
  correction: "Correct or amend a prior report",
};

/**
 * FinCEN SAR Part II, the categories compliance ticks: each maps to the form's type and subtype codes (the XML
 * batch's SuspiciousActivityTypeID and SuspiciousActivitySubtypeID). `other` needs its own words.
 */
export const SAR_CATEGORIES = {
  structuring_below_threshold: {
    label: "Structuring: transactions below a reporting threshold",
    type: 1,
    subtype: 113,
  },
  structuring_alters_transactions: {
    label: "Structuring: alters or cancels transactions to avoid a report",
    type: 1,
    subtype: 111,
  },
  terrorist_financing: {
    label: "Terrorist financing: known or suspected terrorist or organization",
    type: 7,
    subtype: 701,
  },
  fraud_wire: { label: "Fraud: wire or funds transfer", type: 3, subtype: 312 },
  fraud_ach: { label: "Fraud: ACH", type: 3, subtype: 320 },
  money_laundering_source_of_funds: {
    label: "Money laundering: suspicious source of funds",
    type: 8,
    subtype: 821,
  },
  money_laundering_funds_transfers: {
    label: "Money laundering: suspicious EFT or funds transfers",
    type: 8,
    subtype: 805,
  },
  money_laundering_funnel_account: { label: "Money laundering: funnel account", type: 8, subtype: 824 },
  money_laundering_out_of_pattern: {
    label: "Money laundering: out of pattern for the customer",
    type: 8,
    subtype: 812,
  },
  money_laundering_third_party: {
    label: "Money laundering: third-party transactors (straw man)",
    type: 8,
    subtype: 809,
  },
  identity_theft: { label: "Identity theft", type: 9, subtype: 905 },
  account_takeover: { label: "Account takeover", type: 9, subtype: 920 },
  no_economic_purpose: { label: "No apparent economic, business or lawful purpose", type: 9, subtype: 925 },
  high_risk_jurisdiction: { label: "Involves a foreign high-risk jurisdiction", type: 9, subtype: 928 },
  cyber_event_against_customers: {
    label: "Cyber event against the bank's customers",
    type: 11,
    subtype: 1102,
  },
  other: { label: "Other suspicious activity (describe)", type: 9, subtype: 9999 },
} as const satisfies Record<string, { label: string; type: number; subtype: number }>;
export type SarCategory = keyof typeof SAR_CATEGORIES;
export const SAR_CATEGORY_KEYS = Object.keys(SAR_CATEGORIES) as [SarCategory, ...SarCategory[]];

export const SAR_ID_TYPES = ["drivers_license", "passport", "alien_registration", "other"] as const;
export type SarIdType = (typeof SAR_ID_TYPES)[number];
export const SAR_ID_TYPE_LABELS: Record<SarIdType, string> = {
  drivers_license: "Driver's licence or state ID",
  passport: "Passport",
  alien_registration: "Alien registration",
  other: "Other",
};

/** 31 CFR 1020.320(b)(3): 30 calendar days after initial detection, 60 when no suspect is identified. */
export const SAR_DEADLINE_DAYS = 30;
export const SAR_NO_SUSPECT_DEADLINE_DAYS = 60;
/** FinCEN's guidance on continuing activity: a review 90 days after the prior filing, filed within 120. */
export const SAR_CONTINUING_REVIEW_DAYS = 90;
export const SAR_CONTINUING_DEADLINE_DAYS = 120;

const DAY_MS = 24 * 60 * 60 * 1000;
const addDaysTo = (day: string, days: number) =>
  new Date(new Date(`${day}T00:00:00Z`).getTime() + days * DAY_MS).toISOString().slice(0, 10);

/**
 * When the case's SAR is due: a continuing report 120 days after the prior one was filed (its review at 90),
 * any other 30 days after first detection, or 60 when no suspect is identified.
 */
export function sarClock(input: {
  firstDetectedAt: Date;
  subjectIdentified: boolean;
  filingType: SarFilingType;
  priorFiledOn: string | null;
}): { dueAt: Date; reviewOn: string | null } {
  if (input.filingType === "continuing" && input.priorFiledOn) {
    const due = addDaysTo(input.priorFiledOn, SAR_CONTINUING_DEADLINE_DAYS);
    // The end of the New York day it falls on: 05:00 UTC the next morning is late enough in either offset.
    return {
      dueAt: new Date(`${addDaysTo(due, 1)}T04:59:59Z`),
      reviewOn: addDaysTo(input.priorFiledOn, SAR_CONTINUING_REVIEW_DAYS),
    };
  }
  const days = input.subjectIdentified ? SAR_DEADLINE_DAYS : SAR_NO_SUSPECT_DEADLINE_DAYS;
  return { dueAt: new Date(input.firstDetectedAt.getTime() + days * DAY_MS), reviewOn: null };
}

const isRealDay = (v: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const day = z.string({ error: REPORT_MESSAGES.dateInvalid }).refine(isRealDay, REPORT_MESSAGES.dateInvalid);
/** FinCEN refuses leading or trailing spaces and control characters in any value but the narrative. */
const plain = (max: number, message: string) =>
  z
    .string({ error: message })
    .transform((v) => v.replace(/\s+/g, " ").trim())
    .refine((v) => v.length >= 1 && v.length <= max, message)
    .refine(storable, COMPLIANCE_MESSAGES.unstorableText);

/** PUT /api/admin/compliance/cases/{id}/sar: the SAR fields compliance records, while the case is open. */
export const sarDetailsInput = z
  .object({
    filingType: z.enum(SAR_FILING_TYPES, { error: "Filing type must be initial, continuing or correction" }),
    priorReportId: z
      .string({ error: REPORT_MESSAGES.priorReportInvalid })
      .regex(/^\d{14}$/, REPORT_MESSAGES.priorReportInvalid)
      .nullable()
      .default(null),
    priorFiledOn: day.nullable().default(null),
    subjectIdentified: z.boolean({ error: "Say whether a suspect is identified" }).default(true),
    categories: z
      .array(z.enum(SAR_CATEGORY_KEYS, { error: REPORT_MESSAGES.categoryUnknown }))
      .max(SAR_CATEGORY_KEYS.length)
      .default([])
      .transform((v) => [...new Set(v)]),
    otherCategory: plain(50, REPORT_MESSAGES.otherCategoryRequired).nullable().default(null),
    idType: z
      .enum(SAR_ID_TYPES, { error: "Choose the ID document's type from the list" })
      .nullable()
      .default(null),
    idOtherType: plain(50, REPORT_MESSAGES.idOtherTypeRequired).nullable().default(null),
    /** Absent keeps the number on file (the page never holds it); null removes it; a value replaces it. */
    idNumber: z
      .string({ error: REPORT_MESSAGES.idNumberInvalid })
      .trim()
      .regex(/^[A-Za-z0-9-]{1,25}$/, REPORT_MESSAGES.idNumberInvalid)
      .nullable()
      .optional(),
    idIssuerState: z
      .string({ error: REPORT_MESSAGES.stateInvalid })
      .trim()
      .toUpperCase()
      .refine(isUsStateCode, REPORT_MESSAGES.stateInvalid)
      .nullable()
      .default(null),
    idIssuerCountry: z
      .string({ error: REPORT_MESSAGES.countryInvalid })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, REPORT_MESSAGES.countryInvalid)
      .nullable()
      .default(null),
    occupation: plain(50, REPORT_MESSAGES.occupationTooLong).nullable().default(null),
  })
  .superRefine((v, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: "custom", message, path: [path] });
    if (v.filingType === "initial" && v.priorReportId !== null) {
      issue(REPORT_MESSAGES.priorReportNotForInitial, "priorReportId");
    }
    if (v.filingType !== "initial" && v.priorReportId === null) {
      issue(REPORT_MESSAGES.priorReportRequired, "priorReportId");
    }
    if (v.filingType === "continuing" && v.priorFiledOn === null) {
      issue(REPORT_MESSAGES.priorFiledOnRequired, "priorFiledOn");
    }
    if (v.categories.includes("other") !== (v.otherCategory !== null)) {
      issue(REPORT_MESSAGES.otherCategoryRequired, "otherCategory");
    }
    if (v.idType === null && (v.idNumber || v.idIssuerState || v.idIssuerCountry)) {
      issue(REPORT_MESSAGES.idTypeRequired, "idType");
    }
    if ((v.idType === "other") !== (v.idOtherType !== null)) {
      issue(REPORT_MESSAGES.idOtherTypeRequired, "idOtherType");
    }
  });
export type SarDetailsInput = z.input<typeof sarDetailsInput>;

/** What the case page shows of them: the ID number's last four only. */
export const sarDetails = z.object({
  filingType: z.enum(SAR_FILING_TYPES),
  priorReportId: z.string().nullable(),
  priorFiledOn: z.string().nullable(),
  subjectIdentified: z.boolean(),
  categories: z.array(z.enum(SAR_CATEGORY_KEYS)),
  otherCategory: z.string().nullable(),
  idType: z.enum(SAR_ID_TYPES).nullable(),
  idOtherType: z.string().nullable(),
  /** `****1234`, or null when no number is on file. */
  idNumberMasked: z.string().nullable(),
  idIssuerState: z.string().nullable(),
  idIssuerCountry: z.string().nullable(),
  occupation: z.string().nullable(),
  /** From the identity check: `***-**-1234`, or null without one. */
  ssnMasked: z.string().nullable(),
  /** From the customer's profile. */
  phone: z.string().nullable(),
  /** The continuing report's 90-day review day (YYYY-MM-DD). */
  reviewOn: z.string().nullable(),
  /** The SAR clock (30, 60 or continuing), as reportDueAt on the case. */
  reportDueAt: z.string(),
  /** What the XML export still lacks, in FinCEN's words for the fields: empty when it can be exported. */
  missing: z.array(z.string()),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type SarDetails = z.infer<typeof sarDetails>;
export const sarDetailsResponse = z.object({ message: z.string(), sar: sarDetails });
export type SarDetailsResponse = z.infer<typeof sarDetailsResponse>;

export const OFAC_REPORT_KINDS = ["blocked", "rejected"] as const;
export type OfacReportKind = (typeof OFAC_REPORT_KINDS)[number];

/** A report due to OFAC (31 CFR 501.603 blocked, 501.604 rejected), as the Reports due page lists it. */
export const ofacReport = z.object({
  id: z.string(),
  kind: z.enum(OFAC_REPORT_KINDS),
  caseId: z.string(),
  transferId: z.string().nullable(),
  amountCents: z.number().int(),
  formattedAmount: z.string(),
  ownerName: z.string(),
  counterpartyName: z.string(),
  counterpartyAddress: z.string().nullable(),
  programs: z.string(),
  listEntries: z.string(),
  decidedAt: z.string(),
  decidedOn: z.string(),
  dueOn: z.string(),
  overdue: z.boolean(),
  filedOn: z.string().nullable(),
  filedReference: z.string().nullable(),
  filedBy: z.string().nullable(),
});
export type OfacReport = z.infer<typeof ofacReport>;
export const ofacReportsQuery = z.object({
  status: z.enum(["due", "filed"], { error: "Status must be due or filed" }).default("due"),
});
export const ofacReportsResponse = z.object({
  items: z.array(ofacReport),
  /** The annual report of blocked property (501.603(b)(2)): as of June 30, due by September 30. */
  annual: z.object({ year: z.number().int(), asOf: z.string(), dueOn: z.string() }),
});
export type OfacReportsResponse = z.infer<typeof ofacReportsResponse>;
export const ofacReportParams = z.object({ id: z.uuid({ error: REPORT_MESSAGES.reportNotFound }) });
export const fileOfacReportInput = z.object({
  reference: plain(100, REPORT_MESSAGES.referenceRequired).refine(
    (v) => v.length >= 3,
    REPORT_MESSAGES.referenceRequired,
  ),
  filedOn: day,
});
export type FileOfacReportInput = z.infer<typeof fileOfacReportInput>;
export const fileOfacReportResponse = z.object({ message: z.string(), report: ofacReport });
export const annualBlockedQuery = z.object({
  year: z.coerce
    .number({ error: REPORT_MESSAGES.yearInvalid })
    .int(REPORT_MESSAGES.yearInvalid)
    .min(2000, REPORT_MESSAGES.yearInvalid)
    .max(2100, REPORT_MESSAGES.yearInvalid),
});

/** The annual report's reference day and deadline for a year: property blocked as of June 30, due September 30. */
export const annualBlockedReportDays = (year: number) => ({
  year,
  asOf: `${year}-06-30`,
  dueOn: `${year}-09-30`,
});

/** GET …/cases/{id}/report.json: the draft with FinCEN's fields (the SSN and ID number masked; full in the XML). */
export const sarReport = sarDraft.extend({
  filing: z.object({
    filingType: z.enum(SAR_FILING_TYPES),
    filingTypeLabel: z.string(),
    priorReportId: z.string().nullable(),
    priorFiledOn: z.string().nullable(),
    reviewOn: z.string().nullable(),
    subjectIdentified: z.boolean(),
    categories: z.array(z.object({ key: z.enum(SAR_CATEGORY_KEYS), label: z.string() })),
    otherCategory: z.string().nullable(),
    missing: z.array(z.string()),
  }),
  filingInstitution: z.object({
    name: z.string(),
    ein: z.string(),
    address: z.string(),
    regulator: z.string(),
    contactOffice: z.string(),
    contactPhone: z.string(),
  }),
  subjectIdentity: z
    .object({
      ssnMasked: z.string().nullable(),
      phone: z.string().nullable(),
      occupation: z.string().nullable(),
      idType: z.enum(SAR_ID_TYPES).nullable(),
      idTypeLabel: z.string().nullable(),
      idNumberMasked: z.string().nullable(),
      idIssuerState: z.string().nullable(),
      idIssuerCountry: z.string().nullable(),
    })
    .nullable(),
});
export type SarReport = z.infer<typeof sarReport>;

/** FinCEN's narrative guidance as prompts: the case page fills an empty narrative with them. */
export const SAR_NARRATIVE_TEMPLATE = [
  "Who: the subject(s), their role and relationship to the bank, and anyone else involved.",
  "What: the instruments and mechanisms used (transfers, $tag payments, USDC addresses) and the amounts.",
  "When: the date(s) of the activity, first detection, and how long it went on.",
  "Where: the accounts, addresses and places involved, here and abroad.",
  "Why: what makes the activity suspicious (the evidence, the alerts, the list match).",
  "How: how the activity was carried out and how it was detected.",
].join("\n\n");

const COMPLIANCE = ["compliance"] as const;
const CASE_ACTION = {
  access: COMPLIANCE,
  params: caseIdParams,
  replies: { 200: caseActionResponse },
} as const;
const CHECK_DECISION = {
  access: COMPLIANCE,
  params: caseDecisionParams,
  body: checkDecisionInput,
  replies: { 200: caseActionResponse },
  errors: [
    "NOT_FOUND",
    "self_approval",
    "role_required",
    "reason_required",
    "approval_decided",
    "case_decided",
    "stale_approval",
    "CONFLICT",
  ],
} as const;

/**
 * The compliance desk under /api/admin/compliance (decision 024): the sanctions lists, and the cases their hits
 * open. Never support or finance. Every decision on a case waits for a second compliance member.
 */
export const COMPLIANCE_ENDPOINTS = endpoints({
  "GET /api/admin/compliance/cases": {
    access: COMPLIANCE,
    query: casesQuery,
    replies: { 200: complianceCasePage },
  },
  "GET /api/admin/compliance/cases/:id": {
    access: COMPLIANCE,
    params: caseIdParams,
    replies: { 200: complianceCaseDetail },
    errors: ["NOT_FOUND"],
  },
  "GET /api/admin/compliance/members": { access: COMPLIANCE, replies: { 200: complianceMembers } },
  "PUT /api/admin/compliance/cases/:id/assignee": {
    ...CASE_ACTION,
    body: assignCaseInput,
    errors: ["NOT_FOUND", "VALIDATION"],
  },
  "POST /api/admin/compliance/cases/:id/comments": {
    ...CASE_ACTION,
    body: commentInput,
    errors: ["NOT_FOUND"],
  },
  "PUT /api/admin/compliance/cases/:id/narrative": {
    ...CASE_ACTION,
    body: narrativeInput,
    errors: ["NOT_FOUND", "case_decided"],
  },
  // A file the member uploaded through /api/objects/upload, checked as identity documents are.
  "POST /api/admin/compliance/cases/:id/documents": {
    ...CASE_ACTION,
    body: attachDocumentInput,
    errors: ["NOT_FOUND", "BAD_REQUEST", "UNSUPPORTED_MEDIA_TYPE"],
  },
  "POST /api/admin/compliance/cases/:id/links": {
    ...CASE_ACTION,
    body: linkCustomerInput,
    errors: ["NOT_FOUND", "VALIDATION", "CONFLICT"],
  },
  "POST /api/admin/compliance/cases/:id/decisions": {
    ...CASE_ACTION,
    body: proposeDecisionInput,
    errors: ["NOT_FOUND", "VALIDATION", "case_decided", "approval_pending", "CONFLICT"],
  },
  "POST /api/admin/compliance/cases/:id/decisions/:decisionId/approve": CHECK_DECISION,
  "POST /api/admin/compliance/cases/:id/decisions/:decisionId/reject": CHECK_DECISION,
  "GET /api/admin/compliance/cases/:id/report.json": {
    access: COMPLIANCE,
    params: caseIdParams,
    replies: { 200: sarReport },
    errors: ["NOT_FOUND"],
  },
  "GET /api/admin/compliance/cases/:id/report.pdf": {
    access: COMPLIANCE,
    params: caseIdParams,
    file: "application/pdf",
    errors: ["NOT_FOUND"],
  },
  "GET /api/admin/compliance/lists": { access: COMPLIANCE, replies: { 200: sanctionsListVersions } },
  // OFAC's files, base64 in JSON: a new active version, then a re-screen.
  "POST /api/admin/compliance/lists": {
    access: COMPLIANCE,
    body: uploadListInput,
    replies: { 200: uploadListResponse },
    errors: ["list_file_invalid", "list_file_rejected"],
  },
  // The staff list search (decision 053): the active list, by the screening points' own matcher and threshold.
  "POST /api/admin/compliance/search": {
    access: COMPLIANCE,
    body: listSearchInput,
    replies: { 200: listSearchResponse },
    errors: ["CONFLICT"],
  },
  // Reports a regulator asks for (decision 055): the SAR's FinCEN fields and its batch XML, and
  // the OFAC reports of blocked and rejected transactions with the annual blocked-property report.
  "GET /api/admin/compliance/cases/:id/sar": {
    access: COMPLIANCE,
    params: caseIdParams,
    replies: { 200: sarDetails },
    errors: ["NOT_FOUND"],
  },
  "PUT /api/admin/compliance/cases/:id/sar": {
    access: COMPLIANCE,
    params: caseIdParams,
    body: sarDetailsInput,
    replies: { 200: sarDetailsResponse },
    errors: ["NOT_FOUND", "case_decided", "VALIDATION"],
  },
  // FinCEN's SAR batch XML, an attachment the filer uploads to BSA E-Filing (409 until it is complete).
  "GET /api/admin/compliance/cases/:id/report.xml": {
    access: COMPLIANCE,
    params: caseIdParams,
    file: "application/xml",
    errors: ["NOT_FOUND", "CONFLICT", "ssn_unreadable"],
  },
  "GET /api/admin/compliance/ofac-reports": {
    access: COMPLIANCE,
    query: ofacReportsQuery,
    replies: { 200: ofacReportsResponse },
  },
  "POST /api/admin/compliance/ofac-reports/:id/filed": {
    access: COMPLIANCE,
    params: ofacReportParams,
    body: fileOfacReportInput,
    replies: { 200: fileOfacReportResponse },
    errors: ["NOT_FOUND", "CONFLICT", "VALIDATION"],
  },
  "GET /api/admin/compliance/ofac-reports/annual.csv": {
    access: COMPLIANCE,
    query: annualBlockedQuery,
    file: "text/csv",
    errors: ["VALIDATION"],
  },
});
