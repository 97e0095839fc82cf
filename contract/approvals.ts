import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { pageOf, pageQueryWithStatus } from "@/contract/pages";
import { holdsAnyRole, type StaffRole, staffRole } from "@/contract/staff";

/**
 * Maker-checker. Money in above APPROVAL_THRESHOLD, every balance adjustment, resetting a rejected KYC and
 * lifting a freeze wait for a second staff member: the first call answers 202 with a pending approval.
 */
export const APPROVAL_KINDS = [
  "incoming_payment",
  "credit",
  "balance_adjustment",
  "kyc_reset",
  "unfreeze",
  "transfer_release",
  "payout_settled_outside",
  "send_block_lift",
  "deposit_return",
  "savings_rate",
] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** Who may approve or reject each kind (owners always may; never the maker). */
export const APPROVAL_CHECKER_ROLES: Record<ApprovalKind, readonly StaffRole[]> = {
  incoming_payment: ["finance"],
  credit: ["finance"],
  balance_adjustment: ["finance"],
  kyc_reset: ["compliance"],
  unfreeze: ["compliance"],
  // A reported transfer: a second member of the transfer desk, or compliance, who handles the report.
  transfer_release: ["finance", "compliance"],
  // A payout recorded as settled outside Pillar completes the transfer in the ledger: a second finance member.
  payout_settled_outside: ["finance"],
  // Lifting a customer's own block on crypto sends, identity re-verified: a second compliance member (047).
  send_block_lift: ["compliance"],
  // Returning an uncreditable deposit to its sender moves the bank's USDC on chain: a second finance member (060).
  deposit_return: ["finance"],
  // The savings APY, proposed by an owner: a second finance member (or another owner) approves (decision 071).
  savings_rate: ["finance"],
};

export const APPROVAL_KIND_LABELS: Record<ApprovalKind, string> = {
  incoming_payment: "Incoming payment",
  credit: "Credit",
  balance_adjustment: "Balance adjustment",
  kyc_reset: "KYC reset",
  unfreeze: "Lift freeze",
  transfer_release: "Flagged transfer",
  payout_settled_outside: "Payout settled outside Pillar",
  send_block_lift: "Lift a customer's send block",
  deposit_return: "Return a deposit to its sender",
  savings_rate: "Savings rate change",
};

/** Default APPROVAL_THRESHOLD: money in strictly above $1,000.00 needs a second person. */
export const DEFAULT_APPROVAL_THRESHOLD_CENTS = 100_000;
/** The threshold holds over this rolling window per maker and per receiving customer (decision 017). */
export const CREDIT_WINDOW_HOURS = 24;

/** Whether staff holding `roles` may approve or reject an approval of `kind` (owners always; never the maker). */
export function mayDecideApproval(roles: readonly StaffRole[], kind: ApprovalKind): boolean {
  return holdsAnyRole(roles, APPROVAL_CHECKER_ROLES[kind]);
}

export const APPROVAL_MESSAGES = {
  sentForApproval: "Sent for approval",
  reasonRequired: "Please give a reason: a second staff member reviews this change",
  rejectReasonRequired: "Please give a reason for rejecting",
  reasonTooLong: "Please keep the reason under 500 characters",
  notFound: "Approval not found",
  notPending: "This approval was already decided",
  selfApproval: "You made this request: a different staff member must approve or reject it",
  alreadyPending: "This change is already waiting for approval",
  approved: "Approved: the change has been made",
  rejected: "Rejected: nothing was changed",
  customerGone: "The customer no longer exists, so this can only be rejected",
  transferHeld:
    "This transfer is flagged (its customer reported \u201cThis wasn\u2019t me\u201d or is frozen): cancelling it is one click, anything else needs a second staff member",
  balanceChanged:
    "The balance changed since this adjustment was requested; reject it and ask for a new one if still needed",
} as const;

/** An optional reason on the existing admin requests: required (server-side) only when the change needs approval. */
export const optionalReason = z.string().trim().max(500, APPROVAL_MESSAGES.reasonTooLong).nullish();

export const approvalReasonInput = z.preprocess(
  (v) => v ?? {},
  z.object({
    reason: z
      .string({ error: APPROVAL_MESSAGES.reasonRequired })
      .trim()
      .min(1, APPROVAL_MESSAGES.reasonRequired)
      .max(500, APPROVAL_MESSAGES.reasonTooLong),
  }),
);

/** POST /api/admin/users/{userId}/unfreeze body: the reason (the spec's web sent no body). */
export const unfreezeInput = z.preprocess((v) => v ?? {}, z.object({ reason: optionalReason }));

export const rejectApprovalInput = z.preprocess(
  (v) => v ?? {},
  z.object({
    reason: z
      .string({ error: APPROVAL_MESSAGES.rejectReasonRequired })
      .trim()
      .min(1, APPROVAL_MESSAGES.rejectReasonRequired)
      .max(500, APPROVAL_MESSAGES.reasonTooLong),
  }),
);
export const approveApprovalInput = z.preprocess((v) => v ?? {}, z.object({ reason: optionalReason }));

/** What the system knows about the customer, computed when the list is read. */
export const riskSignals = z.object({
  accountAgeDays: z.number().int().nullable(),
  /** Devices first seen signing in to the account in the last 7 days. */
  newDevices7d: z.number().int(),
  /** Transfers in the last 7 days to an address this customer had never sent to before. */
  firstTimeAddresses7d: z.number().int(),
  /** Largest and average completed credit (cents) before this request; null when there were none. */
  largestCreditCents: z.number().int().nullable(),
  averageCreditCents: z.number().int().nullable(),
  creditCount: z.number().int(),
  /** This approval's amount divided by the largest past credit (money kinds with history). */
  amountVsLargest: z.number().nullable(),
  frozen: z.boolean(),
  kycRejected: z.boolean(),
});
export type RiskSignals = z.infer<typeof riskSignals>;

const person = z.object({ id: z.string(), email: z.string().nullable(), role: staffRole });

export const approval = z.object({
  id: z.string(),
  kind: z.enum(APPROVAL_KINDS),
  status: z.enum(APPROVAL_STATUSES),
  user: z
    .object({ id: z.string(), email: z.string(), firstName: z.string(), lastName: z.string() })
    .nullable(),
  /** One line: what will happen when approved. */
  summary: z.string(),
  amountCents: z.number().int().nullable(),
  before: z.record(z.string(), z.unknown()),
  after: z.record(z.string(), z.unknown()),
  reason: z.string(),
  maker: person,
  checker: person.nullable(),
  decisionReason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  ageSeconds: z.number().int(),
  riskSignals: riskSignals.nullable(),
  /**
   * Credits: what the maker credited and what the customer received over the last CREDIT_WINDOW_HOURS when this
   * was asked for (completed credits plus credits waiting for approval, this one included), in cents.
   */
  creditWindow: z.object({ makerCents: z.number().int(), customerCents: z.number().int() }).nullable(),
});
export type Approval = z.infer<typeof approval>;
export const approvalPage = pageOf(approval);
export const approvalsQuery = pageQueryWithStatus(APPROVAL_STATUSES);

/** 202 answer of a request that now waits for a checker. */
export const pendingApprovalResponse = z.object({
  message: z.literal(APPROVAL_MESSAGES.sentForApproval),
  pendingApproval: z.literal(true),
  approval,
});
export type PendingApprovalResponse = z.infer<typeof pendingApprovalResponse>;

export const decideApprovalResponse = z.object({ message: z.string(), approval, result: z.unknown() });
export type DecideApprovalResponse = z.infer<typeof decideApprovalResponse>;

/** Formats an approval's age like "3 min", "2 h", "4 d". */
export function formatAge(seconds: number): string {
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** Whether an admin call's answer is a 202 "Sent for approval" rather than the change itself. */
export function isPendingApproval(value: unknown): value is PendingApprovalResponse {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { pendingApproval?: unknown }).pendingApproval === true
  );
}

/** Web forms show the reason field above this; the server enforces its configured APPROVAL_THRESHOLD either way. */
export function needsApprovalReason(
  cents: number | null,
  thresholdCents = DEFAULT_APPROVAL_THRESHOLD_CENTS,
): boolean {
  return cents !== null && cents > thresholdCents;
}

export const SENT_FOR_APPROVAL_TOAST = {
  title: APPROVAL_MESSAGES.sentForApproval,
  description:
    "Nothing changes for the customer until a second staff member approves it in the Approvals tab.",
} as const;

const approvalIdParams = z.object({ id: z.uuid({ error: "Invalid id" }) });

/**
 * The maker-checker queue (finance and compliance; who may decide each approval is checked per kind, and never
 * its maker: 403 selfApproval, roleRequired). Approving moves money or identity state like the direct action
 * does, so it asks for the same fresh second factor; rejecting is the checker's decision on the same request, so
 * it is signed the same way. An approved change that no longer applies is 409 staleApproval.
 */
export const APPROVALS_ENDPOINTS = endpoints({
  "GET /api/admin/approvals": {
    access: ["finance", "compliance"],
    query: approvalsQuery,
    replies: { 200: approvalPage },
  },
  "POST /api/admin/approvals/:id/approve": {
    access: ["finance", "compliance"],
    params: approvalIdParams,
    body: approveApprovalInput,
    replies: { 200: decideApprovalResponse },
    errors: [
      "NOT_FOUND",
      "approval_decided",
      "self_approval",
      "role_required",
      "stale_approval",
      "UNPROCESSABLE",
      "wallet_limit_exceeded",
    ],
    stepUp: true,
  },
  "POST /api/admin/approvals/:id/reject": {
    access: ["finance", "compliance"],
    params: approvalIdParams,
    body: rejectApprovalInput,
    replies: { 200: decideApprovalResponse },
    errors: ["NOT_FOUND", "approval_decided", "self_approval", "role_required"],
    stepUp: true,
  },
});
