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

/** Spec §4 display statuses: completed, pending, processing/initiated, failed, cancelled. */
export const STATUS_VIEW: Record<Transaction["status"], { label: string; tone: StatusTone }> = {
  completed: { label: "Completed", tone: "positive" },
  pending: { label: "Pending", tone: "pending" },
  in_review: { label: "In Review", tone: "pending" },
  processing: { label: "Processing", tone: "brand" },
  initiated: { label: "Processing", tone: "brand" },
  failed: { label: "Failed", tone: "negative" },
  cancelled: { label: "Cancelled", tone: "neutral" },
};
