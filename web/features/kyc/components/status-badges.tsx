import type { AccountRequestStatus, KycStatus } from "@/contract/kyc";
import { Badge, type BadgeProps } from "@/web/components/ui/badge";

type Tone = NonNullable<BadgeProps["tone"]>;

/** KYC statuses: Verified, Rejected, Pending Review; none is 'Not Started'. */
export const KYC_BADGES: Record<KycStatus | "none", { label: string; tone: Tone }> = {
  approved: { label: "Verified", tone: "positive" },
  rejected: { label: "Rejected", tone: "negative" },
  pending: { label: "Pending Review", tone: "pending" },
  none: { label: "Not Started", tone: "neutral" },
};

/** The KYC texts, one per status. */
export const KYC_TEXTS: Record<KycStatus | "none", string> = {
  approved: "Congratulations! Your account has been approved",
  rejected: "Your application was not approved. You can submit a new application.",
  pending: "Your application is under review. Review can take up to 24 hours.",
  none: "Verify your identity to open a checking account.",
};

export const ACCOUNT_REQUEST_BADGES: Record<AccountRequestStatus, { label: string; tone: Tone }> = {
  pending: { label: "Pending", tone: "pending" },
  in_review: { label: "In Review", tone: "pending" },
  approved: { label: "Approved", tone: "positive" },
  rejected: { label: "Rejected", tone: "negative" },
};

export function KycStatusBadge({ status }: { status: KycStatus | null }) {
  const { label, tone } = KYC_BADGES[status ?? "none"];
  return <Badge tone={tone}>{label}</Badge>;
}

export function AccountRequestStatusBadge({ status }: { status: AccountRequestStatus }) {
  const { label, tone } = ACCOUNT_REQUEST_BADGES[status];
  return <Badge tone={tone}>{label}</Badge>;
}
