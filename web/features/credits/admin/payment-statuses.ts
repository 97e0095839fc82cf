import type { ADMIN_TRANSACTION_STATUSES, INCOMING_PAYMENT_STATUSES } from "@/contract/credits";
import type { TRANSACTION_STATUSES } from "@/contract/transactions";
import type { BadgeProps } from "@/web/components/ui/badge";

type Tone = NonNullable<BadgeProps["tone"]>;
type IncomingPaymentStatus = (typeof INCOMING_PAYMENT_STATUSES)[number];
export type AdminTransactionStatus = (typeof ADMIN_TRANSACTION_STATUSES)[number];
type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Status colours: green done, red failed, amber on its way, grey stopped. */
export const TRANSACTION_STATUS_BADGES: Record<TransactionStatus, { label: string; tone: Tone }> = {
  initiated: { label: "Initiated", tone: "pending" },
  pending: { label: "Pending", tone: "pending" },
  in_review: { label: "In Review", tone: "pending" },
  processing: { label: "Processing", tone: "pending" },
  completed: { label: "Completed", tone: "positive" },
  failed: { label: "Failed", tone: "negative" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  blocked: { label: "Blocked", tone: "negative" },
};

export const INCOMING_PAYMENT_STATUS_BADGES: Record<IncomingPaymentStatus, { label: string; tone: Tone }> =
  TRANSACTION_STATUS_BADGES;
