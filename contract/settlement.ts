import { z } from "zod";
import { idParams } from "@/contract/admin-onboarding";
import { pendingApprovalResponse } from "@/contract/approvals";
import { endpoints } from "@/contract/endpoint";

/** One USDC unit is 10^-6 dollars, one cent 10^4 units (deposits credit whole cents; payouts send cents × 10^4). */
export const UNITS_PER_CENT = 10_000n;

/** What the staff desk and the customer read about payouts on chain (decision 030). */
export const PAYOUT_MESSAGES = {
  completedByChain:
    "With chain settlement a transfer is completed by the chain, not by hand: approve it and the payout is sent and confirmed on chain",
  payoutInFlight:
    "This transfer's payout is already queued or on chain; it settles when the chain confirms or refuses it",
  // Why a payout failed, in the customer's e-mail and receipt. Each ends with what happened to the money.
  notOnChain: (chainName: string) =>
    `The address is not an address on ${chainName}, so USDC could not be sent to it there. Nothing was sent.`,
  noChecksum:
    "The address was entered in small letters only, so it could not be checked for typing mistakes. Nothing was sent: send again with the address exactly as the recipient's wallet shows it.",
  badChecksum:
    "The address's capital letters do not match its checksum, so it probably has a typing mistake. Nothing was sent.",
  zeroAddress: "USDC sent to the zero address can never be spent by anyone. Nothing was sent.",
  tokenContract:
    "The address is the USDC token contract itself, not a wallet: USDC sent there would be lost. Nothing was sent.",
  ownAddress:
    "The address belongs to Pillar, not to a recipient. Nothing was sent; to add money to an account, use its Add money page.",
  blacklisted:
    "The USDC issuer has blocked the recipient's address, so USDC cannot be sent to it. Nothing was sent.",
  paused: "The USDC issuer has paused all USDC transfers, so this one could not be sent.",
  reverted: "The USDC network refused this transfer, so it could not be sent.",
} as const;

/** Chain names customers see on the Add money page and the receipt; others show as "EVM chain <id>". */
const CHAIN_NAMES: Record<number, string> = {
  1: "Ethereum",
  10: "OP Mainnet",
  137: "Polygon PoS",
  8453: "Base",
  42161: "Arbitrum One",
  11155111: "Ethereum Sepolia (test network)",
  84532: "Base Sepolia (test network)",
  31337: "Local development chain (anvil)",
};

export const chainName = (chainId: number) => CHAIN_NAMES[chainId] ?? `EVM chain ${chainId}`;

/** What the Add money page says (decision 028). */
export const SETTLEMENT_MESSAGES = {
  staffCannotDeposit: "Deposit addresses are for customers adding money",
  manualOnly: "Adding money with USDC is not available yet. Your account receives bank payments as usual.",
  onlyUsdc: (chainName: string) =>
    `Send only USDC on ${chainName} to this address. Other tokens, or USDC sent on another network, cannot be credited and may be lost.`,
  underReview:
    "This deposit is under review. It is shown in your balance as pending and becomes available once the review is complete.",
  belowCent:
    "Amounts below one cent cannot be credited: a deposit is credited in whole cents and the rest stays unclaimed.",
} as const;

/** A deposit a deep reorg removed after it was booked (decision 056): what the customer reads. */
export const DEPOSIT_REVERSED_MESSAGE =
  "The network dropped this deposit's transaction after it was credited, so the credit was taken back. If the transaction is confirmed again, it is credited again.";
export const RETURNED_DEPOSIT_OWED_MESSAGE =
  "Part of it was already spent, so your balance is below zero: sending money is paused until money you add covers it.";

/**
 * under_review: booked but on hold while it is reviewed; the customer is never told why (decision 039).
 * reversed: booked, then a reorg deeper than the confirmations took it off the chain (decision 056).
 */
export const chainDepositStatus = z.enum(["pending", "under_review", "credited", "below_cent", "reversed"]);
export type ChainDepositStatus = z.infer<typeof chainDepositStatus>;

export const chainDeposit = z.object({
  id: z.string(),
  txHash: z.string(),
  /** Whole cents credited (or to be credited once confirmed), formatted "$1,234.56". */
  amount: z.string(),
  amountCents: z.number().int(),
  status: chainDepositStatus,
  seenAt: z.string(),
  /** A link to the transaction on the chain's explorer when CHAIN_EXPLORER_URL is set. */
  explorerUrl: z.string().nullable(),
});
export type ChainDeposit = z.infer<typeof chainDeposit>;

/** GET /api/deposits: the customer's deposit address and recent USDC deposits, or manual mode. */
export const depositInfo = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("manual"), message: z.string() }),
  z.object({
    mode: z.literal("chain"),
    /** EIP-55 checksummed. */
    address: z.string(),
    chainId: z.number().int(),
    chainName: z.string(),
    token: z.literal("USDC"),
    confirmations: z.number().int(),
    warning: z.string(),
    explorerUrl: z.string().nullable(),
    deposits: z.array(chainDeposit),
  }),
]);
export type DepositInfo = z.infer<typeof depositInfo>;

/** Reconciliation of the chain with the ledger (decision 038). */
export const reconciliationArea = z.enum(["hot_wallet", "payouts", "deposits"]);
export type ReconciliationArea = z.infer<typeof reconciliationArea>;
/**
 * A difference is for staff to explain; awaiting is confirmed on chain and settles on the worker's next pass;
 * resolved is a difference an earlier run found that this run no longer finds (decision 057).
 */
export const reconciliationOutcome = z.enum(["difference", "awaiting", "resolved"]);
export type ReconciliationOutcome = z.infer<typeof reconciliationOutcome>;

/** Who acknowledged a difference, when and why (decision 040); it then stops counting in /metrics. */
export const reconciliationAcknowledgment = z.object({
  by: z.string().nullable(),
  at: z.string(),
  reason: z.string(),
});
export type ReconciliationAcknowledgment = z.infer<typeof reconciliationAcknowledgment>;

export const reconciliationItem = z.object({
  id: z.string(),
  area: reconciliationArea,
  kind: z.string(),
  outcome: reconciliationOutcome,
  txHash: z.string().nullable(),
  reference: z.string().nullable(),
  /** USDC in dollars with 6 decimals ("12.500000"), or null. */
  chainUsdc: z.string().nullable(),
  ledgerUsdc: z.string().nullable(),
  detail: z.string(),
  explorerUrl: z.string().nullable(),
  /** A difference staff acknowledged, in this report or an earlier one; null when it is not (or is awaiting). */
  acknowledgment: reconciliationAcknowledgment.nullable(),
  /**
   * A difference's place in its life (decision 057): first found by this report (new), found before and still
   * there (open), or no longer found (resolved). Null for awaiting items and reports before differences were kept.
   */
  state: z.enum(["new", "open", "resolved"]).nullable(),
  /** The as-of block of the run that first found the difference. */
  firstSeenBlock: z.number().int().nullable(),
  /** The as-of block of the run that found it resolved. */
  resolvedBlock: z.number().int().nullable(),
});
export type ReconciliationItem = z.infer<typeof reconciliationItem>;

export const reconciliationReport = z.object({
  id: z.string(),
  trigger: z.enum(["scheduled", "staff"]),
  requestedBy: z.string().nullable(),
  status: z.enum(["running", "clean", "differences", "error"]),
  asOfBlock: z.number().int().nullable(),
  headBlock: z.number().int().nullable(),
  hotOnChainUsdc: z.string().nullable(),
  hotExpectedUsdc: z.string().nullable(),
  /** Differences open at this run: those it found first and those still open from earlier runs. */
  differences: z.number().int(),
  /** Of the differences, those no earlier run found (decision 057): each difference is new once. */
  newDifferences: z.number().int(),
  /** Differences earlier runs found that this run no longer finds. */
  resolved: z.number().int(),
  /** Of the differences, those staff acknowledged (decision 040). */
  acknowledged: z.number().int(),
  awaiting: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ReconciliationReport = z.infer<typeof reconciliationReport>;

export const reconciliationList = z.object({ reports: z.array(reconciliationReport) });
export const reconciliationDetail = z.object({
  report: reconciliationReport,
  items: z.array(reconciliationItem),
});
export type ReconciliationDetail = z.infer<typeof reconciliationDetail>;

/** 6-decimal token units as dollars ("1234.500000"; negative with a leading minus). */
export function unitsToUsdc(units: string | bigint): string {
  const n = BigInt(units);
  const abs = n < 0n ? -n : n;
  const whole = abs / 1_000_000n;
  const frac = (abs % 1_000_000n).toString().padStart(6, "0");
  return `${n < 0n ? "-" : ""}${whole}.${frac}`;
}

/** What the Settlement tab says when no chain is configured (decision 038). */
export const SETTLEMENT_ADMIN_MESSAGES = {
  manual:
    "Settlement is manual: no chain is configured (CHAIN_RPC_URL is unset), so staff complete outgoing transfers and record incoming payments by hand on the Outgoing Pays and Incoming Payments tabs.",
} as const;

export const payoutState = z.enum(["queued", "held", "signed", "sent", "completed", "failed"]);

/** The maker's proposal, or the approved record, of a payout settled outside Pillar (decision 040). */
export const settledOutside = z.object({
  approvalId: z.string(),
  status: z.enum(["pending", "approved"]),
  /** The proposing staff member's e-mail. */
  proposedBy: z.string().nullable(),
  approvedBy: z.string().nullable(),
  reason: z.string(),
  txHash: z.string().nullable(),
  explorerUrl: z.string().nullable(),
  proposedAt: z.string(),
});
export type SettledOutside = z.infer<typeof settledOutside>;

export const SETTLED_OUTSIDE_MESSAGES = {
  settled: (status: string) => `This payout is already ${status}: there is nothing to record`,
  held: "This payout is held for a compliance review: compliance decides it before anything else moves",
  noCustomer: "This payout's customer no longer exists, so the transfer cannot be completed in the ledger",
  ownMined:
    "One of Pillar's own transactions for this payout is on chain: the payout worker completes it once it is deep enough",
  stillMinable: (nonce: number, confirmations: number) =>
    `Pillar's signed transaction for this payout (nonce ${nonce}) can still be mined. Speed it up or wait; it can be recorded as settled outside Pillar only once another transaction has used nonce ${nonce} and is ${confirmations} blocks deep.`,
  ownTransaction:
    "That transaction is one Pillar signed for a payout: the payout worker settles it, it cannot be named as settled outside Pillar",
  hashUsed: "That transaction is already recorded as the settlement of another payout",
  notFound: "No such transaction on this chain yet: check the hash, or wait until it is mined",
  reverted: "That transaction was refused by the chain (reverted), so it paid nothing",
  notDeep: (confirmations: number) =>
    `That transaction is not yet ${confirmations} blocks deep: record it once it is confirmed`,
  notThePayment: (amount: string, to: string) =>
    `That transaction does not transfer ${amount} USDC to ${to}, the payout's address and amount`,
} as const;

export const settledOutsideInput = z.object({
  reason: z
    .string({ error: "Please give a reason: a second staff member reviews this" })
    .trim()
    .min(1, "Please give a reason: a second staff member reviews this")
    .max(500, "Please keep the reason under 500 characters"),
  /** The on-chain transaction that paid the customer, when there is one. */
  txHash: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z
      .string()
      .trim()
      .regex(/^0x[0-9a-fA-F]{64}$/, "A transaction hash is 0x and 64 hexadecimal characters")
      .transform((h) => h.toLowerCase())
      .nullish(),
  ),
});
export type SettledOutsideInput = z.input<typeof settledOutsideInput>;

export const acknowledgeDifferenceInput = z.object({
  reason: z
    .string({ error: "Please say why this difference is acknowledged" })
    .trim()
    .min(1, "Please say why this difference is acknowledged")
    .max(500, "Please keep the reason under 500 characters"),
});

export const settlementPayout = z.object({
  id: z.string(),
  transferRequestId: z.string(),
  status: payoutState,
  amount: z.string(),
  toAddress: z.string(),
  /** The mined attempt's hash, else the latest signed attempt's; null before signing. */
  txHash: z.string().nullable(),
  nonce: z.number().int().nullable(),
  attempts: z.number().int(),
  /** Blocks on top of the mined block, inclusive; 0 while not mined. */
  confirmations: z.number().int(),
  ageSeconds: z.number().int(),
  /**
   * The payout every later one waits behind (its nonce is the chain's next), signed or sent, not mined, and
   * signed longer than PAYOUT_REBROADCAST_AFTER ago: staff may speed it up (decision 058).
   */
  stuck: z.boolean(),
  /** usdc or gas (the hot wallet is short), fee_ceiling (CHAIN_MAX_FEE_GWEI), nonce_used_outside; null when none. */
  waitingReason: z.string().nullable(),
  /** Not mined, and a lower nonce is not mined yet: the nonce it waits behind (decision 058). */
  waitingBehindNonce: z.number().int().nullable(),
  failureReason: z.string().nullable(),
  explorerUrl: z.string().nullable(),
  /** A pending proposal to record it as settled outside Pillar, or the approved record; null otherwise. */
  settledOutside: settledOutside.nullable(),
});
export type SettlementPayout = z.infer<typeof settlementPayout>;

export const settlementDeposit = z.object({
  id: z.string(),
  txHash: z.string(),
  logIndex: z.number().int(),
  toAddress: z.string(),
  amount: z.string(),
  status: chainDepositStatus,
  confirmations: z.number().int(),
  ageSeconds: z.number().int(),
  explorerUrl: z.string().nullable(),
  /** The server's own rule (decision 060, `returnRefusal`): a finance member may propose returning it now. */
  returnable: z.boolean(),
  /** A return to its sender: proposed (waits for a second member), sending (on chain), returned; or none. */
  returnStatus: z.enum(["proposed", "sending", "returned"]).nullable(),
});
export type SettlementDeposit = z.infer<typeof settlementDeposit>;

/** An alert the Settlement tab shows above everything else, and /metrics counts (decision 058). */
export const settlementAlertKind = z.enum([
  "fee_ceiling",
  "nonce_gap",
  "nonce_used_outside",
  "payout_unsent",
  "payout_stuck",
  "deposit_pending",
]);
export type SettlementAlertKind = z.infer<typeof settlementAlertKind>;
export const settlementAlert = z.object({ kind: settlementAlertKind, message: z.string() });
export type SettlementAlert = z.infer<typeof settlementAlert>;

/** The fee market as the payout worker last saw it, the ceiling, and how long the oldest items have waited. */
export const settlementHealth = z.object({
  /** "50 gwei", or null: no CHAIN_MAX_FEE_GWEI. */
  ceiling: z.string().nullable(),
  baseFee: z.string().nullable(),
  marketMaxFee: z.string().nullable(),
  observedAt: z.string().nullable(),
  oldestPendingDepositSeconds: z.number().int().nullable(),
  oldestUnsentPayoutSeconds: z.number().int().nullable(),
  oldestStuckPayoutSeconds: z.number().int().nullable(),
});
export type SettlementHealth = z.infer<typeof settlementHealth>;

/** A customer a deposit reversal left below zero: sending is refused until money they add covers `owed` (decision 056). */
export const returnedDeposit = z.object({
  userId: z.string(),
  email: z.string(),
  /** The wallet's balance, below zero: "-$10.00". */
  balance: z.string(),
  owed: z.string(),
  reversedDeposits: z.number().int(),
});
export type ReturnedDeposit = z.infer<typeof returnedDeposit>;

/** GET /api/admin/settlement: the Settlement tab. */
export const settlementOverview = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("manual"), message: z.string() }),
  z.object({
    mode: z.literal("chain"),
    chainId: z.number().int(),
    chainName: z.string(),
    confirmations: z.number().int(),
    headBlock: z.number().int().nullable(),
    /** The node did not answer: balances and confirmations are unknown. */
    nodeError: z.string().nullable(),
    hotWallet: z.object({
      address: z.string(),
      usdc: z.string().nullable(),
      gas: z.string().nullable(),
      gasSymbol: z.string(),
      lowUsdcThreshold: z.string(),
      lowGasThreshold: z.string(),
      lowUsdc: z.boolean(),
      lowGas: z.boolean(),
      explorerUrl: z.string().nullable(),
    }),
    payoutCounts: z.record(payoutState, z.number().int()),
    payouts: z.array(settlementPayout),
    depositCounts: z.record(chainDepositStatus, z.number().int()),
    deposits: z.array(settlementDeposit),
    alerts: z.array(settlementAlert),
    fees: settlementHealth,
    returnedDeposits: z.array(returnedDeposit),
  }),
]);
export type SettlementOverview = z.infer<typeof settlementOverview>;

export const speedUpAnswer = z.object({
  txHash: z.string(),
  nonce: z.number().int(),
  broadcast: z.boolean(),
});
export type SpeedUpAnswer = z.infer<typeof speedUpAnswer>;

/** GET /api/deposits: the customer's own deposit address (no id in the request); staff never bank (customersOnly). */
export const SETTLEMENT_ENDPOINTS = endpoints({
  "GET /api/deposits": {
    access: "user",
    replies: { 200: depositInfo },
    // A customer who may receive money gets an address: an open account, not closed, not staff (409 otherwise).
    errors: ["customers_only", "account_closed", "staff_cannot_receive", "account_not_open"],
  },
});

const reconciliationItemParams = idParams.extend({ itemId: z.string().max(64) });

/**
 * The Settlement tab (decision 038; finance and owners). With no chain configured a payout is unknown (404) and
 * reconciling answers 409 manualSettlement. What moves money on chain or is signed for the record asks for a
 * fresh second factor; settled outside Pillar is proposed here and decided on the approvals routes by a second
 * finance member (decision 040).
 */
export const SETTLEMENT_ADMIN_ENDPOINTS = endpoints({
  "GET /api/admin/settlement": { access: ["finance"], replies: { 200: settlementOverview } },
  "POST /api/admin/settlement/payouts/:id/speed-up": {
    access: ["finance"],
    params: idParams,
    replies: { 200: speedUpAnswer },
    errors: ["NOT_FOUND", "payout_not_stuck", "fee_ceiling"],
    stepUp: true,
  },
  "POST /api/admin/settlement/payouts/:id/settled-outside": {
    access: ["finance"],
    params: idParams,
    body: settledOutsideInput,
    replies: { 202: pendingApprovalResponse },
    errors: ["NOT_FOUND", "payout_not_settleable", "outside_tx_invalid", "approval_pending"],
    stepUp: true,
  },
  "GET /api/admin/settlement/reconciliations": { access: ["finance"], replies: { 200: reconciliationList } },
  // Run now: the same job as the hourly one, recorded with who asked.
  "POST /api/admin/settlement/reconciliations": {
    access: ["finance"],
    replies: { 201: reconciliationReport },
    errors: ["manual_settlement", "reconciliation_running"],
  },
  "GET /api/admin/settlement/reconciliations/:id": {
    access: ["finance"],
    params: idParams,
    replies: { 200: reconciliationDetail },
    errors: ["NOT_FOUND"],
  },
  "GET /api/admin/settlement/reconciliations/:id/report.csv": {
    access: ["finance"],
    params: idParams,
    file: "text/csv",
    errors: ["NOT_FOUND"],
  },
  // Acknowledging a difference: a reason, a fresh step-up, audited (decision 040).
  "POST /api/admin/settlement/reconciliations/:id/items/:itemId/acknowledge": {
    access: ["finance"],
    params: reconciliationItemParams,
    body: acknowledgeDifferenceInput,
    replies: { 200: reconciliationDetail },
    errors: ["NOT_FOUND", "not_a_difference", "difference_acknowledged"],
    stepUp: true,
  },
});
