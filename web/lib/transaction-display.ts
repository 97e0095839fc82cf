import type { Transaction } from "@/contract/transactions";

export type Direction = "in" | "out" | "none";

/** Credits and incoming payments bring money in; debits take it out; 'other' moves nothing we can sign. */
export function directionOf(type: Transaction["type"]): Direction {
  if (type === "credit" || type === "incoming_payment") return "in";
  if (type === "debit") return "out";
  return "none";
}

/** The badge tones (kept here as plain names so lib does not reach up into components). */
export type StatusTone = "neutral" | "brand" | "positive" | "negative" | "pending";

/** Display statuses: completed, pending, processing/initiated, failed, cancelled. */
export const STATUS_VIEW: Record<Transaction["status"], { label: string; tone: StatusTone }> = {
  completed: { label: "Completed", tone: "positive" },
  pending: { label: "Pending", tone: "pending" },
  in_review: { label: "In Review", tone: "pending" },
  processing: { label: "Processing", tone: "brand" },
  initiated: { label: "Processing", tone: "brand" },
  failed: { label: "Failed", tone: "negative" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  // Blocked property (decision 048): the customer reads it neutrally, never why.
  blocked: { label: "Not sent", tone: "neutral" },
};

/**
 * How deep an on-chain transaction is, as the receipt and the history say it: "Waiting to be mined" before its
 * first block, then "2 of 3" (never past the depth that settles it).
 */
export function confirmationDepth(confirmations: number, required: number): string {
  return confirmations === 0 ? "Waiting to be mined" : `${Math.min(confirmations, required)} of ${required}`;
}
