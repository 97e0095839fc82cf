import type { AccountSummary } from "@/contract/transactions";

export const SEND_MONEY_BLOCKED = {
  title: "Feature Unavailable",
  description: "Complete account setup to send money",
} as const;

export const ANALYTICS_BLOCKED = {
  title: "Feature Unavailable",
  description: "Complete KYC verification to access analytics",
} as const;

/** Spec §5: an approved checking account with an account number, and KYC not rejected. */
export function canSendMoney(summary: Pick<AccountSummary, "kyc" | "accountRequest"> | undefined): boolean {
  if (!summary) return false;
  const request = summary.accountRequest;
  return (
    request?.status === "approved" && Boolean(request.accountNumber) && summary.kyc?.status !== "rejected"
  );
}

/** Spec §5: analytics is closed only while the KYC application is rejected. */
export function canSeeAnalytics(summary: Pick<AccountSummary, "kyc"> | undefined): boolean {
  return summary?.kyc?.status !== "rejected";
}
