import { z } from "zod";
import { endpoints } from "@/contract/endpoint";
import { MONEY_OUT_REASONS } from "@/contract/error-reasons";
import { pageOf, pageQueryWithStatus } from "@/contract/pages";
import { refineNameCharacters } from "@/contract/person-name";
import { passkeyOptionsResponse, secondFactorProof, transferPasskeyOptionsInput } from "@/contract/security";
import { CATEGORY_KEYS } from "@/contract/transaction-categories";
import { ETHEREUM_ADDRESS, SOLANA_ADDRESS } from "@/contract/transfer-figures";

export const DAILY_LIMIT_CENTS = 200_000;
/** 2% in basis points: fee = amount × 200 / 10,000, rounded half up to the cent. */
export const FEE_BASIS_POINTS = 200;

export function feeFor(amountCents: number): number {
  return Math.floor((amountCents * FEE_BASIS_POINTS + 5_000) / 10_000);
}

export const TRANSFER_MESSAGES = {
  /** A transfer that waits for a review: the same words whatever the reason, and never the reason. */
  underReview:
    "Transfer request submitted. It is under review, and your funds stay on hold until it is sent.",
  achUnavailable: "ACH transfers are currently not available. Please use USDC crypto transfer",
  amountPositive: "Amount must be greater than $0",
  amountInvalid: "Amount must be a dollar amount with at most 2 decimals",
  dailyLimit: "Daily withdrawal limit exceeded",
  setupIncomplete: "Complete account setup to send money",
  addressInvalid: "Enter a valid USDC wallet address: 0x followed by 40 hex characters, or a Solana address",
  adminCannotTransfer: "Admins cannot create outgoing transfers",
  idempotencyMismatch: "This Idempotency-Key was already used for a different transfer",
  idempotencyKeyInvalid: "Idempotency-Key must be 1 to 255 visible characters",
  /** Chain settlement: an EVM address without EIP-55 capitals, sent without the review step's confirmation. */
  unchecksummedAddress:
    "This address is in small letters only, so it carries no checksum and a typing mistake in it cannot be caught. Compare every character with the recipient's wallet, then confirm it on the review step.",
  /** Chain settlement: an EVM address whose capitals do not match its EIP-55 checksum. */
  addressChecksumMismatch:
    "This address's capital letters do not match its checksum, so it probably has a typing mistake. Copy it again from the recipient's wallet.",
} as const;

/**
 * An EVM address whose letters are all small: as typed it carries no EIP-55 checksum, so a typing mistake in it
 * cannot be caught, and the review step asks the customer to confirm it (decision 044). Rarely an address's own
 * checksum has no capitals; the server (which computes it) then needs no confirmation, but asking costs nothing.
 * An address with no letters at all is its own checksummed form. All capitals is not "no checksum": an EIP-55
 * address can have only capitals (0x52908400098527886E0F7030069857D2E4169EE7), and the server checks it.
 */
export function hasNoChecksum(address: string): boolean {
  if (!ETHEREUM_ADDRESS.test(address)) return false;
  const body = address.slice(2);
  return /[a-f]/.test(body) && body === body.toLowerCase();
}

export const dailyCountLimitMessage = (limit: number) =>
  `You can make at most ${limit} transfer requests per day. Please try again tomorrow.`;

export const insufficientFundsMessage = (available: string) =>
  `Insufficient Funds: your available balance is ${available}`;

export const isUsdcAddress = (value: string) => ETHEREUM_ADDRESS.test(value) || SOLANA_ADDRESS.test(value);

const text = (name: string, max = 200) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`);

export const createTransferInput = z.object({
  amount: z.union([z.number(), z.string()], { error: "Amount is required" }),
  recipientName: text("Recipient name", 100).superRefine(refineNameCharacters),
  recipientAccount: z.string().trim().max(34).optional().nullable(),
  recipientRouting: z.string().trim().max(20).optional().nullable(),
  purpose: text("Transfer purpose", 200),
  category: z
    .union([z.enum(CATEGORY_KEYS), z.literal("")])
    .optional()
    .nullable(),
  paymentMethod: z.enum(["crypto", "ach"], { error: "paymentMethod must be crypto or ach" }),
  cryptoAddress: z.string().trim().max(100).optional().nullable(),
  /** Required when the sender has a second factor: a TOTP/recovery code, or a passkey assertion over this transfer. */
  secondFactor: secondFactorProof.optional(),
  /**
   * The customer checked an address that imitates one of their saved recipients (same first and last 4
   * characters) and sends anyway; without it such a transfer is refused (422 `lookalikeAddress`).
   */
  confirmLookalikeAddress: z.boolean().optional(),
  /**
   * The customer compared an address without a checksum (all small letters) on the review step and sends to
   * it; with chain settlement such a transfer is refused without it (422 `unchecksummedAddress`, decision 044).
   */
  confirmUnchecksummedAddress: z.boolean().optional(),
});
export type CreateTransferInput = z.infer<typeof createTransferInput>;

/** blocked: sent to a listed person, its money moved to blocked property by compliance (decision 048). */
export const TRANSFER_STATUSES = [
  "pending",
  "processing",
  "completed",
  "failed",
  "cancelled",
  "blocked",
] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
export const TERMINAL_TRANSFER_STATUSES: readonly TransferStatus[] = [
  "completed",
  "failed",
  "cancelled",
  "blocked",
];

export const transferRequest = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  amount: z.number(),
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  netAmountCents: z.number().int(),
  formattedAmount: z.string(),
  recipientName: z.string(),
  recipientAccount: z.string().nullable(),
  recipientRouting: z.string(),
  purpose: z.string(),
  category: z.string(),
  paymentMethod: z.string(),
  cryptoAddress: z.string(),
  status: z.enum(TRANSFER_STATUSES),
  adminNotes: z.string().nullable(),
  createdAt: z.string(),
  formattedDate: z.string(),
});
export type TransferRequest = z.infer<typeof transferRequest>;

/** POST /api/transfer/request 201 (and the same body again on an Idempotency-Key replay). */
export const createTransferResponse = z.object({ message: z.string(), transferRequest });
export type CreateTransferResponse = z.infer<typeof createTransferResponse>;

/** The back office's view adds when "This wasn't me" flagged the request (null when it never was). */
export const adminTransferRequest = transferRequest.extend({
  user: z
    .object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() })
    .nullable(),
  flaggedAt: z.string().nullable(),
  /**
   * A compliance hold keeps it (an open case with a hit, or a decided one but clear): no staff release moves it;
   * compliance clears, rejects or blocks it on the case (decision 048).
   */
  heldByCompliance: z.boolean(),
});
export type AdminTransferRequest = z.infer<typeof adminTransferRequest>;
export const adminTransferRequestPage = pageOf(adminTransferRequest);
/** The desk opens on what needs a decision: pending requests, unless another status (or "all") is asked for. */
export const transferRequestsQuery = pageQueryWithStatus(TRANSFER_STATUSES, "pending");

export const transferLimits = z.object({
  dailyLimit: z.string(),
  usedToday: z.string(),
  remainingToday: z.string(),
  dailyLimitCents: z.number().int(),
  usedTodayCents: z.number().int(),
  remainingTodayCents: z.number().int(),
  /** The customer's own daily limit in force and what it leaves today; null without one (decision 035). */
  ownDailyLimit: z.string().nullable(),
  ownDailyLimitCents: z.number().int().nullable(),
  ownRemainingToday: z.string().nullable(),
  ownRemainingTodayCents: z.number().int().nullable(),
  /** The lower of the bank's and the customer's own: what a money form offers (decision 035). */
  effectiveDailyLimit: z.string(),
  effectiveDailyLimitCents: z.number().int(),
  effectiveRemainingToday: z.string(),
  effectiveRemainingTodayCents: z.number().int(),
});
export type TransferLimits = z.infer<typeof transferLimits>;

/** PUT /api/admin/transfer-requests/{id}: the five statuses plus the quick buttons' approved/rejected. */
export const updateTransferInput = z.object({
  status: z.enum([...TRANSFER_STATUSES, "approved", "rejected"], { error: "Please select a valid status" }),
  adminNotes: z.string().trim().max(2000).optional().nullable(),
  /** Required when the transfer is flagged and does not move to cancelled or failed (maker-checker). */
  reason: z.string().trim().max(500, "Please keep the reason under 500 characters").nullish(),
});
export type UpdateTransferInput = z.infer<typeof updateTransferInput>;

/**
 * The reference a customer quotes to support: the transfer id's first 8 characters, upper-cased. One function
 * so the success screen, the receipt, the PDF and the back office always print the same thing.
 */
export function transferReference(transferId: string): string {
  return transferId.replace(/-/g, "").slice(0, 8).toUpperCase();
}

export const RECEIPT_MESSAGES = {
  notFound: "Transfer not found",
  cannotCancel: (status: string) =>
    `This transfer is already ${status === "processing" ? "under review" : status} and can no longer be cancelled`,
  /** A compliance hold: the same neutral words as every review, never the reason (decision 048). */
  underReviewNoCancel:
    "This transfer is under review and can't be cancelled while the review lasts. Contact support if you have questions.",
} as const;

/** One step of the receipt's timeline; `at` is null for a step not reached yet. */
export const transferTimelineStep = z.object({
  status: z.enum(["requested", "processing", "completed", "failed", "cancelled", "blocked"]),
  at: z.string().nullable(),
});
export type TransferTimelineStep = z.infer<typeof transferTimelineStep>;

/** A transfer's payout on chain (chain settlement only, decision 030). */
export const transferOnChain = z.object({
  /** The mined transaction's hash, else the last one sent; null before it is signed. */
  txHash: z.string().nullable(),
  /** Blocks on top of (and including) the one it was mined in; 0 until mined. */
  confirmations: z.number().int(),
  /** CHAIN_CONFIRMATIONS: the transfer completes at this many. */
  confirmationsRequired: z.number().int(),
  /** The transaction on the chain's explorer when CHAIN_EXPLORER_URL is set. */
  explorerUrl: z.string().nullable(),
  /** Why the payout failed, in plain words; null unless it did. */
  failureReason: z.string().nullable(),
});
export type TransferOnChain = z.infer<typeof transferOnChain>;

/** GET /api/transfers/{id}: the customer's own receipt. Figures are the request's, which the ledger holds. */
export const transferReceipt = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.enum(TRANSFER_STATUSES),
  amountCents: z.number().int(),
  feeCents: z.number().int(),
  netAmountCents: z.number().int(),
  recipientName: z.string(),
  cryptoAddress: z.string(),
  purpose: z.string(),
  createdAt: z.string(),
  timeline: z.array(transferTimelineStep),
  /** Only a pending transfer can still be cancelled by its sender. */
  canCancel: z.boolean(),
  /** Its payout on chain once one is queued (chain settlement); null otherwise. */
  onChain: transferOnChain.nullable(),
  /** With chain settlement, the network it is sent on ("USDC on Base"); absent: read from the address's form. */
  network: z.string().optional(),
});
export type TransferReceipt = z.infer<typeof transferReceipt>;

export const cancelTransferResponse = z.object({ message: z.string(), receipt: transferReceipt });
export type CancelTransferResponse = z.infer<typeof cancelTransferResponse>;

/**
 * /api/transfer: a customer's outgoing USDC transfers. The transfer carries an Idempotency-Key; its proof and
 * creation limits (keyed by the body, and never refusing a replay) are the server's own.
 * (Marked pure: the web's pages import this file's messages and leave the table out of their bundles.)
 */
export const TRANSFER_ENDPOINTS = /* @__PURE__ */ endpoints({
  "POST /api/transfer/request": {
    access: "user",
    body: createTransferInput,
    replies: { 201: createTransferResponse },
    errors: [
      "VALIDATION",
      "BAD_REQUEST",
      "CONFLICT",
      "RATE_LIMITED",
      ...MONEY_OUT_REASONS,
      "sends_blocked",
      "lookalike_address",
      "unchecksummed_address",
      "address_checksum_mismatch",
      "transfer_under_review",
      "name_characters_invalid",
    ],
    idempotent: true,
  },
  "POST /api/transfer/passkey-options": {
    access: "user",
    body: transferPasskeyOptionsInput,
    replies: { 200: passkeyOptionsResponse },
    errors: ["FORBIDDEN", "no_passkey", "name_characters_invalid"],
    limit: { perMinute: 10, by: "user", bucket: "transfer-passkey" },
  },
  "GET /api/transfer/limits": { access: "user", replies: { 200: transferLimits } },
});

// Any string: a malformed id is answered 404 by the service, like a missing or someone else's one.
const receiptParams = z.object({ id: z.string().max(100) });

/**
 * /api/transfers/{id}: a customer's receipt for one of their own transfers (also as a PDF), and cancelling it.
 * (Marked pure: the web's pages import this file's messages and leave the table out of their bundles.)
 */
export const TRANSFER_RECEIPT_ENDPOINTS = /* @__PURE__ */ endpoints({
  "GET /api/transfers/:id": {
    access: "user",
    params: receiptParams,
    replies: { 200: transferReceipt },
    errors: ["NOT_FOUND"],
  },
  "POST /api/transfers/:id/cancel": {
    access: "user",
    params: receiptParams,
    replies: { 200: cancelTransferResponse },
    errors: ["NOT_FOUND", "CONFLICT"],
  },
  "GET /api/transfers/:id/receipt.pdf": {
    access: "user",
    params: z.object({ id: z.string().max(64) }),
    file: "application/pdf",
    errors: ["NOT_FOUND"],
  },
});
