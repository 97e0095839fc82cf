import type { TransferStatus } from "@/contract/transfers";
import type { BadgeProps } from "@/web/components/ui/badge";

export const TRANSFER_STATUS_BADGES: Record<
  TransferStatus,
  { label: string; tone: NonNullable<BadgeProps["tone"]> }
> = {
  pending: { label: "Pending", tone: "pending" },
  processing: { label: "Processing", tone: "pending" },
  completed: { label: "Completed", tone: "positive" },
  failed: { label: "Failed", tone: "negative" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  // Compliance moved its money to blocked property (decision 048).
  blocked: { label: "Blocked", tone: "negative" },
};
