import { z } from "zod";
import { userIdParams } from "@/contract/admin";
import { endpoints } from "@/contract/endpoint";

/**
 * Account closure (decision 059). A customer with money history is closed, never deleted: the login
 * stays for statements and tax forms, money neither leaves nor arrives, and identity data is erased after the
 * retention period (ACCOUNT_RETENTION_YEARS, five by default: the BSA's record keeping).
 */

/** What keeps an account from closing, as closure_blocker (server/db/functions/account-closure.sql) names it. */
export const CLOSURE_BLOCKERS = [
  "negative_balance",
  "transfer_pending",
  "incoming_pending",
  "open_holds",
  "savings_not_empty",
  "balance_not_zero",
  "schedule_active",
  "money_request_open",
  "approval_pending",
  "compliance_case_open",
] as const;
export type ClosureBlocker = (typeof CLOSURE_BLOCKERS)[number];

/** Each refusal says what to do; the customer and staff read the same words. */
export const CLOSURE_BLOCKER_MESSAGES: Record<ClosureBlocker, string> = {
  negative_balance:
    "The account owes money (a negative balance). Bring the balance back to $0.00 before closing it.",
  open_holds:
    "Money on the account is on hold. Wait until the held payments finish (or cancel them) before closing it.",
  savings_not_empty:
    "Your savings account still holds money or interest. Move your savings to checking first: close the savings account, then this one.",
  balance_not_zero:
    "The account still holds money. Send it out first (to a wallet or by $tag) so the balance is $0.00, then close it.",
  transfer_pending:
    "A transfer is still pending or processing. Wait until it completes or cancel it, then close.",
  incoming_pending:
    "A payment to this account is still on its way. Wait until it arrives, then close the account.",
  schedule_active: "Scheduled transfers are still set up. Cancel them in Scheduled transfers, then close.",
  money_request_open:
    "A money request is still open (sent or received). Cancel, decline or pay it, then close the account.",
  approval_pending: "A staff approval about this account is still waiting. Try again once it is decided.",
  compliance_case_open: "This account is under review. It can be closed once the review ends.",
};

export const CLOSURE_MESSAGES = {
  accountClosed: "This account is closed: it can no longer send or receive money. Statements stay available.",
  alreadyClosed: "This account is already closed",
  closed: "Your account is closed. You can still sign in to read and download your statements.",
  closedByStaff: "The account is closed.",
  hasMoneyHistory:
    "This customer has money history, which the bank keeps for five years: close the account instead of deleting it.",
  reasonRequired: "Give the reason for closing the account",
  reasonTooLong: "Please keep the reason under 500 characters",
  staffCannotClose: "Staff accounts are not closed this way",
  noticeTitle: "Your account is closed",
} as const;

/** POST /api/account/close: the password when no second factor is enrolled (decision 047's proof). */
export const closeAccountInput = z.object({
  password: z.string().max(128).optional(),
});
export type CloseAccountInput = z.infer<typeof closeAccountInput>;

/** POST /api/admin/users/:userId/close: staff give the reason, kept on the account and in the audit row. */
export const staffCloseAccountInput = z.object({
  reason: z
    .string({ error: CLOSURE_MESSAGES.reasonRequired })
    .trim()
    .min(1, CLOSURE_MESSAGES.reasonRequired)
    .max(500, CLOSURE_MESSAGES.reasonTooLong),
});
export type StaffCloseAccountInput = z.infer<typeof staffCloseAccountInput>;

export const accountClosure = z.object({
  closedAt: z.string(),
  /** "customer": closed by its owner; "staff": by a staff member, with a reason. */
  closedBy: z.enum(["customer", "staff"]),
  /** The day in words for the banner ("November 29, 2026"). */
  closedOn: z.string(),
});
export type AccountClosure = z.infer<typeof accountClosure>;

export const closeAccountResponse = z.object({
  message: z.string(),
  closure: accountClosure,
});
export type CloseAccountResponse = z.infer<typeof closeAccountResponse>;

/** GET /api/account/closure: null while the account is open. */
export const closureStatus = z.object({ closure: accountClosure.nullable() });
export type ClosureStatus = z.infer<typeof closureStatus>;

/** The customer's own closure (decision 059). */
export const CLOSURE_ENDPOINTS = endpoints({
  "GET /api/account/closure": { access: "user", replies: { 200: closureStatus } },
  /** The password that confirms it is limited by the server's own preHandler: 5 tries per customer in 15 minutes. */
  "POST /api/account/close": {
    access: "user",
    body: closeAccountInput,
    replies: { 200: closeAccountResponse },
    errors: [
      "FORBIDDEN",
      "step_up_required",
      "password_confirm_required",
      "password_wrong",
      "account_already_closed",
      "closure_blocked",
      "RATE_LIMITED",
    ],
  },
});

/** Staff close a customer's account with a reason (decision 059). */
export const CLOSURE_ADMIN_ENDPOINTS = endpoints({
  /** Compliance, who answer for the records a closure keeps. */
  "POST /api/admin/users/:userId/close": {
    access: ["compliance"],
    params: userIdParams,
    body: staffCloseAccountInput,
    replies: { 200: closeAccountResponse },
    errors: ["NOT_FOUND", "FORBIDDEN", "account_already_closed", "closure_blocked"],
  },
});
