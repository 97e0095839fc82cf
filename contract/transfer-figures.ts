import { formatMoney } from "@/contract/money";
import type { TransferStatus } from "@/contract/transfers";

/**
 * How a transfer's figures read, in one place so the review step, the success screen, the receipt page and the
 * receipt PDF never disagree: the amount unsigned, the fee as what comes off it ("−$1.00"), and what the
 * recipient gets in USDC. A failed or cancelled transfer says instead that nothing was sent.
 */

export interface TransferFigureLine {
  label: string;
  value: string;
  /** The line the eye should land on (what the recipient gets). */
  isStrong?: boolean;
}

export interface TransferFigures {
  lines: TransferFigureLine[];
  /** Said under the figures when the transfer never left; null otherwise. */
  note: string | null;
}

/** A failed or cancelled transfer (or its debit) never left: its hold was released and no fee was charged. */
export function isUnsentTransfer(status: string | undefined): boolean {
  return status === "failed" || status === "cancelled";
}

export const FEE_LABEL = "Fee (2%)";

/** The fee as what comes off the amount: "−$1.00" (a typographic minus, as every amount out is shown). */
export const formatFee = (feeCents: number) => `−${formatMoney(feeCents)}`;

/** What the recipient's wallet receives: "$49.00 USDC" (1 USD = 1 USDC). */
export const formatRecipientGets = (netCents: number) => `${formatMoney(netCents)} USDC`;

/** The one line a history row shows for a transfer that never left. */
export const UNSENT_SHORT = "Not sent · hold released · no fee";

export function unsentNote(amountCents: number): string {
  return `Nothing was sent. The ${formatMoney(amountCents)} hold was released to the available balance and no fee was charged.`;
}

/**
 * The lines of a transfer's money summary. Without a status (the review step, before anything is sent) it reads
 * as an active transfer.
 */
export function transferFigures({
  amountCents,
  feeCents,
  status,
}: {
  amountCents: number;
  feeCents: number;
  status?: TransferStatus;
}): TransferFigures {
  if (status === "blocked") {
    // Decision 048: the money left the balance but never reached the recipient; the customer is told no reason.
    return {
      lines: [
        { label: "Amount", value: `${formatMoney(amountCents)} (not sent)` },
        { label: FEE_LABEL, value: `${formatMoney(0)} (not charged)` },
        { label: "Recipient gets", value: "Nothing sent", isStrong: true },
      ],
      note: `Nothing was sent, and the ${formatMoney(amountCents)} is no longer in your balance. Contact support about it.`,
    };
  }
  if (isUnsentTransfer(status)) {
    return {
      lines: [
        { label: "Amount", value: `${formatMoney(amountCents)} (not sent)` },
        { label: FEE_LABEL, value: `${formatMoney(0)} (not charged)` },
        { label: "Recipient gets", value: "Nothing sent", isStrong: true },
      ],
      note: unsentNote(amountCents),
    };
  }
  return {
    lines: [
      { label: "Amount", value: formatMoney(amountCents) },
      { label: FEE_LABEL, value: formatFee(feeCents) },
      { label: "Recipient gets", value: formatRecipientGets(amountCents - feeCents), isStrong: true },
    ],
    note: null,
  };
}

// Kept here rather than in transfers.ts so the history row can use this file without loading zod.
export const ETHEREUM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * The network a USDC address belongs to, from its form (the only two the transfer form accepts): "USDC on
 * Ethereum" or "USDC on Solana". The request's routing field holds only the spec's placeholder 'CRYPTO'.
 */
export function usdcNetwork(address: string): string {
  if (ETHEREUM_ADDRESS.test(address)) return "USDC on Ethereum";
  if (SOLANA_ADDRESS.test(address)) return "USDC on Solana";
  return "USDC";
}
