import { z } from "zod";
import { userIdParams } from "@/contract/admin";
import { idParams } from "@/contract/admin-onboarding";
import { optionalReason, pendingApprovalResponse } from "@/contract/approvals";
import { endpoints } from "@/contract/endpoint";
import { pageOf, pageQueryWithStatus } from "@/contract/pages";
import { TRANSACTION_STATUSES, transaction } from "@/contract/transactions";

export const INCOMING_PAYMENT_STATUSES = [
  "pending",
  "processing",
  "completed",
  "failed",
  "cancelled",
] as const;
export const ADMIN_TRANSACTION_STATUSES = ["initiated", "pending", "in_review", "completed"] as const;

/** Spec §5: the blank defaults of Create Incoming Payment. */
export const INCOMING_PAYMENT_DEFAULTS = {
  description: "Incoming Payment",
  paymentFor: "Payment",
  fromAccount: "External Account",
  fromRouting: "000000000",
  recipientName: "Unknown Recipient",
} as const;

export const PAYMENT_MESSAGES = {
  createMissing: "Please select a user and enter payment amount",
  statusRequired: "Please select a payment status",
  transactionMissing: "Please fill in all required fields",
  amountInvalid: "Amount must be a positive dollar amount with at most 2 decimals",
  balanceInvalid: "Enter the new balance as a dollar amount, e.g. $1000.00",
  balanceBelowHeld: "The new balance cannot be lower than the amount held for pending transfers",
  /** 409 staffAccount: staff never bank, so no money is credited to an account holding a staff role. */
  staffCannotReceive: "This account belongs to staff, and staff accounts cannot receive money",
  /** 409 accountNotOpen: money reaches only customers whose checking account is open. */
  accountNotOpen: "This customer has no open checking account, so they cannot receive money yet",
  /** 409 balanceChanged: the maker typed a target against a balance that has moved since. */
  balanceMovedSinceShown: (now: string) =>
    `The balance changed since you opened it (it is ${now} now): check it and enter the new balance again`,
  /** The dry run's answer: every check passed; the real call (with the second factor) would do this. */
  checksPassed: "Checks passed",
} as const;

const optionalText = (max = 200) => z.string().trim().max(max).optional().nullable();
const money = z.union([z.number(), z.string()], { error: PAYMENT_MESSAGES.createMissing });
/**
 * `dryRun: true` runs every check of the call, the approval decision included, without the second factor and
 * writing nothing (rolled back), so the desk validates before it asks for a code (docs/architecture.md,
 * Maker-checker).
 */
const dryRun = z.boolean({ error: "dryRun must be true or false" }).optional();

export const createIncomingPaymentInput = z.object({
  userId: z.uuid({ error: PAYMENT_MESSAGES.createMissing }),
  amount: money,
  description: optionalText(),
  paymentFor: optionalText(),
  fromAccount: optionalText(34),
  fromRouting: optionalText(20),
  toAccount: optionalText(34),
  toRouting: optionalText(20),
  recipientName: optionalText(100),
  adminNotes: optionalText(2000),
  status: z.enum(INCOMING_PAYMENT_STATUSES).optional(),
  /** Required when completing it moves more than APPROVAL_THRESHOLD (maker-checker). */
  reason: optionalReason,
  dryRun,
});
export type CreateIncomingPaymentInput = z.infer<typeof createIncomingPaymentInput>;

export const updateIncomingPaymentInput = z.object({
  status: z.enum(INCOMING_PAYMENT_STATUSES, { error: PAYMENT_MESSAGES.statusRequired }),
  adminNotes: optionalText(2000),
  created_at: z.iso
    .datetime({ offset: true, error: "created_at must be an ISO date-time" })
    .optional()
    .nullable(),
  reason: optionalReason,
  dryRun,
});
export type UpdateIncomingPaymentInput = z.infer<typeof updateIncomingPaymentInput>;

export const incomingPayment = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  user: z
    .object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() })
    .nullable(),
  amount: z.number(),
  amountCents: z.number().int(),
  formattedAmount: z.string(),
  description: z.string(),
  paymentFor: z.string(),
  fromAccount: z.string(),
  fromRouting: z.string(),
  toAccount: z.object({ accountNumber: z.string().nullable(), routingNumber: z.string().nullable() }),
  recipientName: z.string(),
  status: z.enum(INCOMING_PAYMENT_STATUSES),
  adminNotes: z.string().nullable(),
  created_at: z.string(),
  formattedDate: z.string(),
});
export type IncomingPayment = z.infer<typeof incomingPayment>;
export type IncomingPaymentStatus = (typeof INCOMING_PAYMENT_STATUSES)[number];
export const incomingPaymentPage = pageOf(incomingPayment);
export const incomingPaymentsQuery = pageQueryWithStatus(INCOMING_PAYMENT_STATUSES);

/** GET /api/admin/transactions item: the customer's transaction plus whose it is. */
export const adminTransaction = transaction.extend({ userEmail: z.string().nullable() });
export type AdminTransaction = z.infer<typeof adminTransaction>;
export const adminTransactionPage = pageOf(adminTransaction);
export const adminTransactionsQuery = pageQueryWithStatus(TRANSACTION_STATUSES);

export const createAdminTransactionInput = z.object({
  userId: z.uuid({ error: PAYMENT_MESSAGES.transactionMissing }),
  type: z.literal("credit", { error: "Admins can create only credit transactions" }).default("credit"),
  amount: z.union([z.number(), z.string()], { error: PAYMENT_MESSAGES.transactionMissing }),
  description: z
    .string({ error: PAYMENT_MESSAGES.transactionMissing })
    .trim()
    .min(1, PAYMENT_MESSAGES.transactionMissing)
    .max(200),
  category: z.string().trim().max(40).optional().nullable(),
  status: z.enum(ADMIN_TRANSACTION_STATUSES).optional(),
  reason: optionalReason,
  dryRun,
});
export type CreateAdminTransactionInput = z.infer<typeof createAdminTransactionInput>;

export const updateAdminTransactionInput = z.object({
  status: z.enum(ADMIN_TRANSACTION_STATUSES, { error: "Please select a transaction status" }),
  adminNotes: optionalText(2000),
  reason: optionalReason,
  dryRun,
});
export type UpdateAdminTransactionInput = z.infer<typeof updateAdminTransactionInput>;

export const adjustBalanceInput = z.object({
  accountBalance: z.union([z.string(), z.number()], { error: PAYMENT_MESSAGES.balanceInvalid }),
  /** Every adjustment waits for a second staff member, so it always needs a reason. */
  reason: optionalReason,
  /**
   * The balance the maker saw when typing the target: a balance that moved since is refused (409
   * `balanceChanged`), so a credit posted meanwhile is never swallowed by the absolute target
   * (docs/architecture.md, Maker-checker).
   */
  expectedBalance: z.union([z.string(), z.number()], { error: PAYMENT_MESSAGES.balanceInvalid }).optional(),
  dryRun,
});

/** POST/PUT /api/admin/incoming-payments 201/200: the payment, and the customer's new balance when it completed. */
export const incomingPaymentResult = z.object({
  payment: incomingPayment,
  userBalance: z.string().optional(),
});
export type IncomingPaymentResult = z.infer<typeof incomingPaymentResult>;

/** 200 answer of a `dryRun` call: it would pass, and whether it would wait for a second staff member. */
export const moneyDryRunResponse = z.object({
  dryRun: z.literal(true),
  message: z.literal(PAYMENT_MESSAGES.checksPassed),
  pendingApproval: z.boolean(),
});
export type MoneyDryRunResponse = z.infer<typeof moneyDryRunResponse>;

/** PUT /api/admin/users/:userId/balance 200: the balance now (an unchanged balance answers at once). */
export const adjustBalanceResponse = z.object({ accountBalance: z.string() });
export type AdjustBalanceResponse = z.infer<typeof adjustBalanceResponse>;

/** GET /api/admin/ledger/verify: everything recomputed from postings, with any drift found. */
export const ledgerReport = z.object({
  ok: z.boolean(),
  entries: z.number().int(),
  accounts: z.number().int(),
  problems: z.array(z.string()),
});
export type LedgerReport = z.infer<typeof ledgerReport>;

/** What a customer receiving money may be refused with: staff never bank, a closed or unopened account receives nothing. */
const RECEIVING_REFUSALS = [
  "NOT_FOUND",
  "staff_cannot_receive",
  "account_closed",
  "account_not_open",
] as const;
/** A change that waits for a second finance member needs a reason, and one pending change per target. */
const APPROVAL_REFUSALS = ["reason_required", "approval_pending"] as const;

/**
 * The admin money desk (finance and owners): incoming payments, credits, balances and the ledger check. Money in
 * above APPROVAL_THRESHOLD and every balance adjustment wait for a second finance member (202). Money in by hand
 * (a completed payment or credit, a balance edit) asks for a fresh second factor, but not on a `dryRun` call,
 * which writes nothing: the server adds that conditional check itself.
 */
export const CREDITS_ADMIN_ENDPOINTS = endpoints({
  "GET /api/admin/incoming-payments": {
    access: ["finance"],
    query: incomingPaymentsQuery,
    replies: { 200: incomingPaymentPage },
  },
  // An optional Idempotency-Key makes a resend after a lost answer safe (decision 027).
  "POST /api/admin/incoming-payments": {
    access: ["finance"],
    body: createIncomingPaymentInput,
    replies: { 200: moneyDryRunResponse, 201: incomingPaymentResult, 202: pendingApprovalResponse },
    errors: ["VALIDATION", ...RECEIVING_REFUSALS, ...APPROVAL_REFUSALS, "wallet_limit_exceeded"],
    idempotent: true,
  },
  "PUT /api/admin/incoming-payments/:id": {
    access: ["finance"],
    params: idParams,
    body: updateIncomingPaymentInput,
    replies: {
      200: z.union([incomingPaymentResult, moneyDryRunResponse]),
      202: pendingApprovalResponse,
    },
    errors: ["VALIDATION", ...RECEIVING_REFUSALS, "CONFLICT", ...APPROVAL_REFUSALS, "wallet_limit_exceeded"],
  },
  "GET /api/admin/transactions": {
    access: ["finance"],
    query: adminTransactionsQuery,
    replies: { 200: adminTransactionPage },
  },
  "POST /api/admin/transactions": {
    access: ["finance"],
    body: createAdminTransactionInput,
    replies: { 200: moneyDryRunResponse, 201: transaction, 202: pendingApprovalResponse },
    errors: ["VALIDATION", ...RECEIVING_REFUSALS, ...APPROVAL_REFUSALS, "wallet_limit_exceeded"],
  },
  "PUT /api/admin/transactions/:id": {
    access: ["finance"],
    params: idParams,
    body: updateAdminTransactionInput,
    replies: { 200: z.union([transaction, moneyDryRunResponse]), 202: pendingApprovalResponse },
    errors: [...RECEIVING_REFUSALS, "CONFLICT", ...APPROVAL_REFUSALS, "wallet_limit_exceeded"],
  },
  // Every adjustment waits for a second finance member.
  "PUT /api/admin/users/:userId/balance": {
    access: ["finance"],
    params: userIdParams,
    body: adjustBalanceInput,
    replies: {
      200: z.union([adjustBalanceResponse, moneyDryRunResponse]),
      202: pendingApprovalResponse,
    },
    errors: [
      "VALIDATION",
      "NOT_FOUND",
      "staff_cannot_receive",
      "balance_changed",
      "CONFLICT",
      ...APPROVAL_REFUSALS,
      "wallet_limit_exceeded",
    ],
  },
  "GET /api/admin/ledger/verify": { access: ["finance"], replies: { 200: ledgerReport } },
});
