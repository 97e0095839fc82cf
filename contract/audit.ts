import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { pageOf, pageQuery } from "@/contract/pages";
import { type StaffRole, staffRole } from "@/contract/staff";

export const AUDIT_MESSAGES = {
  invalidDate: "Dates must be real days written YYYY-MM-DD",
  fromAfterTo: "The start date must be on or before the end date",
  invalidAction:
    "Action must be lower-case letters, digits, dots and underscores, with an optional * at the end",
  invalidPerson: "Search by an e-mail address or a user id",
  reasonRequired: "Give a reason of 3 to 500 characters",
  ssnRevealed: "SSN revealed. It hides again in 60 seconds.",
  ssnUnreadable: "This SSN cannot be decrypted with the current data key",
  dataAccessEmpty: "Nobody at Pillar has looked at your personal data or acted on your account yet.",
} as const;

/** Reads of sensitive data: each one writes an audit row the customer sees in Settings. */
export const READ_ACTIONS = {
  ssnRevealed: "customer.ssn_revealed",
  dateOfBirthRevealed: "customer.dob_revealed",
  documentOpened: "customer.document_opened",
  chatOpened: "customer.chat_opened",
} as const;

/**
 * A staff member opening a customer's chat is audited once per conversation per this window, not once per
 * poll: the inbox re-asks every few seconds (mostly 304s) and one row per poll would bury everything else.
 */
export const CHAT_OPEN_AUDIT_WINDOW_MINUTES = 30;

/**
 * What a customer sees in "Access to your data": the reads above and staff actions taken on their account,
 * each with the role that usually does it (shown when a row predates the stored role). Role grants, mail
 * and chat replies (the customer sees those in the chat itself) are not listed.
 */
export const CUSTOMER_VISIBLE_ACTIONS: Readonly<Record<string, { label: string; role: StaffRole }>> = {
  [READ_ACTIONS.ssnRevealed]: { label: "Viewed your full Social Security number", role: "compliance" },
  [READ_ACTIONS.dateOfBirthRevealed]: { label: "Viewed your full date of birth", role: "compliance" },
  [READ_ACTIONS.documentOpened]: { label: "Opened one of your identity documents", role: "compliance" },
  [READ_ACTIONS.chatOpened]: { label: "Opened your support chat", role: "support" },
  "kyc.approve": { label: "Approved your identity verification", role: "compliance" },
  "kyc.reject": { label: "Declined your identity verification", role: "compliance" },
  "kyc.reset": { label: "Reopened your identity verification", role: "compliance" },
  "account_request.update": { label: "Updated your account application", role: "compliance" },
  "user.unfreeze": { label: "Lifted the freeze on your account", role: "compliance" },
  "self_limits.block_lifted": {
    label: "Lifted the block on crypto sends you set, after checking your identity",
    role: "compliance",
  },
  // What a compliance review found is never shown; only that the account was reviewed. The action name says
  // no more than the label (decision 032); case_decided is the name rows written before it carry.
  "compliance.account_reviewed": { label: "Reviewed your account", role: "compliance" },
  "compliance.case_decided": { label: "Reviewed your account", role: "compliance" },
  "incoming_payment.create": { label: "Recorded an incoming payment", role: "finance" },
  "incoming_payment.update_status": { label: "Updated an incoming payment", role: "finance" },
  "transaction.create": { label: "Created a credit to your account", role: "finance" },
  "transaction.update_status": { label: "Updated a transaction", role: "finance" },
  "transfer.update_status": { label: "Updated one of your transfers", role: "finance" },
  "user.adjust_balance": { label: "Adjusted your balance", role: "finance" },
  "dashboard_content.update": { label: "Changed the text on your dashboard", role: "support" },
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day that exists: 2026-02-30 and 9999-99-99 are not (the second is an Invalid Date, never thrown). */
export function isRealDay(v: string): boolean {
  if (!DAY.test(v)) return false;
  const date = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(v);
}
/** The message names the field (`to: Dates must be…`), like every other validation answer. */
const day = (field: string) =>
  z
    .string()
    .max(10, `${field}: ${AUDIT_MESSAGES.invalidDate}`)
    .refine(isRealDay, `${field}: ${AUDIT_MESSAGES.invalidDate}`)
    .optional();
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const person = z.preprocess(
  blankToUndefined,
  z.string().trim().min(1).max(320, AUDIT_MESSAGES.invalidPerson).optional(),
);

/**
 * GET /api/admin/audit (and audit.csv): actor and customer by e-mail or user id; action exact, or a prefix
 * when it ends in `*` (`kyc.*`); from/to are whole New York days, both inclusive.
 */
const auditFilterFields = {
  actor: person,
  customer: person,
  action: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(100, AUDIT_MESSAGES.invalidAction)
      .regex(/^[a-z0-9_.]*[a-z0-9_.*]$/, AUDIT_MESSAGES.invalidAction)
      .refine((v) => !v.slice(0, -1).includes("*"), AUDIT_MESSAGES.invalidAction)
      .optional(),
  ),
  from: z.preprocess(blankToUndefined, day("from")),
  to: z.preprocess(blankToUndefined, day("to")),
};
const fromNotAfterTo = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;

export const auditSearchQuery = pageQuery
  .omit({ q: true })
  .extend(auditFilterFields)
  .refine(fromNotAfterTo, { message: AUDIT_MESSAGES.fromAfterTo, path: ["from"] });
/** GET /api/admin/audit.csv: the same filters, the whole result (no paging). */
export const auditExportQuery = z
  .object(auditFilterFields)
  .refine(fromNotAfterTo, { message: AUDIT_MESSAGES.fromAfterTo, path: ["from"] });
export type AuditExportQuery = z.infer<typeof auditExportQuery>;
export type AuditSearchQuery = z.infer<typeof auditSearchQuery>;

const person_ = z.object({ id: z.string(), email: z.string() });

export const auditEntry = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** Null for system actions; email null when the account no longer exists. */
  actor: z.object({ id: z.string(), email: z.string().nullable(), roles: z.array(staffRole) }).nullable(),
  actorRole: staffRole.nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** The customer the row concerns; email and name null once that account was deleted. */
  customer: person_.extend({ email: z.string().nullable(), name: z.string().nullable() }).nullable(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditPage = pageOf(auditEntry);

/** A reason staff type before a sensitive read; trimmed, 3–500 characters. */
export const auditReason = z
  .string()
  .trim()
  .min(3, AUDIT_MESSAGES.reasonRequired)
  .max(500, AUDIT_MESSAGES.reasonRequired);

/** POST /api/admin/kyc/:id/ssn/reveal: the body is checked by the service, so a bad reason is a field error. */
export const revealSsnInput = z.object({
  reason: z.string().max(10_000, AUDIT_MESSAGES.reasonRequired).optional(),
});
export const revealSsnResponse = z.object({ ssn: z.string() });
export type RevealSsnResponse = z.infer<typeof revealSsnResponse>;
/** POST /api/admin/kyc/:id/dob/reveal: YYYY-MM-DD, or null for an application made before it was asked. */
export const revealDateOfBirthResponse = z.object({ dateOfBirth: z.string().nullable() });
export type RevealDateOfBirthResponse = z.infer<typeof revealDateOfBirthResponse>;

/** GET /api/account/data-access: the customer's own entries; never the staff member's name, e-mail or id. */
export const dataAccessEntry = z.object({
  id: z.string(),
  createdAt: z.string(),
  action: z.string(),
  description: z.string(),
  role: staffRole,
  reason: z.string().nullable(),
});
export type DataAccessEntry = z.infer<typeof dataAccessEntry>;
export const dataAccessPage = pageOf(dataAccessEntry);
export const dataAccessQuery = pageQuery.omit({ q: true });

/** The audit trail: compliance (and owners) search the log and export the same search. */
export const AUDIT_ENDPOINTS = endpoints({
  "GET /api/admin/audit": { access: ["compliance"], query: auditSearchQuery, replies: { 200: auditPage } },
  // Streamed in keyset batches with backpressure, like the customer's transaction export.
  "GET /api/admin/audit.csv": { access: ["compliance"], query: auditExportQuery, file: "text/csv" },
});

/** The signed-in customer's own access log: who (by role) looked at or acted on their data. */
export const DATA_ACCESS_ENDPOINTS = endpoints({
  "GET /api/account/data-access": {
    access: "user",
    query: dataAccessQuery,
    replies: { 200: dataAccessPage },
  },
});
