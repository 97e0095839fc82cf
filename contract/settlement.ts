import { z } from "zod";

/** What the Add money page says (decision 028). */
export const SETTLEMENT_MESSAGES = {
  staffCannotDeposit: "Deposit addresses are for customers adding money",
  manualOnly: "Adding money with USDC is not available yet. Your account receives bank payments as usual.",
  onlyUsdc: (chainName: string) =>
    `Send only USDC on ${chainName} to this address. Other tokens, or USDC sent on another network, cannot be credited and may be lost.`,
  belowCent:
    "Amounts below one cent cannot be credited: a deposit is credited in whole cents and the rest stays unclaimed.",
} as const;

export const chainDepositStatus = z.enum(["pending", "credited", "below_cent"]);
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
