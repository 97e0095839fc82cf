import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { accountRequest, kycApplication } from "@/contract/kyc";

export const TRANSACTION_TYPES = ["credit", "debit", "incoming_payment", "other"] as const;
export const TRANSACTION_STATUSES = [
  "initiated",
  "pending",
  "in_review",
  "processing",
  "completed",
  "failed",
  "cancelled",
  // A transfer's money moved to blocked property by compliance (decision 048): out of the wallet, never sent.
  "blocked",
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Spec §3 Transaction. Amounts are decimal strings ("12.50") plus exact cents for arithmetic. */
export const transaction = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  type: z.enum(TRANSACTION_TYPES),
  amount: z.string(),
  fee: z.string(),
  netAmount: z.string(),
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  netAmountCents: z.number().int(),
  description: z.string(),
  category: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  date: z.string(),
  /**
   * The outgoing transfer this debit belongs to (its receipt is /transfers/{id}); null otherwise. Optional
   * only so older fixtures and cached bodies still parse; the server always sends it.
   */
  transferRequestId: z.string().nullable().optional(),
  /** The on-chain transaction of a USDC payout (once sent) or deposit; null for every other movement. */
  chainTxHash: z.string().nullable().optional(),
  /** The hash on the block explorer when CHAIN_EXPLORER_URL is set. */
  chainTxUrl: z.string().nullable().optional(),
  /**
   * How many blocks confirm that transaction (0 while it waits to be mined), at most `chainConfirmationsRequired`:
   * a payout counts up until it completes; a credited deposit already had them all. Null off chain.
   */
  chainConfirmations: z.number().int().nullable().optional(),
  /** CHAIN_CONFIRMATIONS: the depth at which a payout completes and a deposit is credited. Null off chain. */
  chainConfirmationsRequired: z.number().int().nullable().optional(),
});
export type Transaction = z.infer<typeof transaction>;
export const transactionList = z.array(transaction);

export const transactionPage = z.object({ items: transactionList, nextCursor: z.string().nullable() });
export type TransactionPage = z.infer<typeof transactionPage>;

export const transactionPageQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number({ error: "limit must be a number" }).int().min(1).max(100).default(25),
});

/** Spec §3 Account summary: display strings plus exact cents, and the current onboarding records. */
export const accountSummary = z.object({
  totalBalance: z.string(),
  availableBalance: z.string(),
  pendingBalance: z.string(),
  balanceCents: z.number().int(),
  availableCents: z.number().int(),
  pendingCents: z.number().int(),
  kyc: kycApplication.nullable(),
  accountRequest: accountRequest.nullable(),
  /**
   * Whether this customer may send money now: the server's gate (can_send_money: an approved account with a
   * number and an approved KYC, both current), which the web shows and never re-derives.
   */
  canSendMoney: z.boolean(),
});
export type AccountSummary = z.infer<typeof accountSummary>;

/**
 * The signed-in customer's balances and history (their own only). The dashboard polls the summary and the recent
 * list every few seconds: a current copy is answered 304 from memory. GET /api/transactions/export.csv, a
 * streamed file, is still a plain route.
 */
export const ACCOUNTS_ENDPOINTS = endpoints({
  "GET /api/account/summary": { access: "user", replies: { 200: accountSummary } },
  "GET /api/transactions/recent": { access: "user", replies: { 200: transactionList } },
  "GET /api/transactions": {
    access: "user",
    query: transactionPageQuery,
    replies: { 200: transactionPage },
    errors: ["VALIDATION"],
  },
  "GET /api/transactions/export.csv": { access: "user", file: "text/csv" },
});
