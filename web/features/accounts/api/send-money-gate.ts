import { canSendMoney as meetsSendMoneyGate } from "@/contract/send-money-gate";
import type { AccountSummary } from "@/contract/transactions";

export const SEND_MONEY_BLOCKED = {
  title: "Feature Unavailable",
  description: "Complete account setup to send money",
} as const;

export const ANALYTICS_BLOCKED = {
  title: "Feature Unavailable",
  description: "Complete KYC verification to access analytics",
} as const;

/** The contract's gate (the server's too): an approved account with a number and an approved KYC. */
export function canSendMoney(summary: Pick<AccountSummary, "kyc" | "accountRequest"> | undefined): boolean {
  return summary !== undefined && meetsSendMoneyGate(summary);
}

/** Spec §5: analytics is closed only while the KYC application is rejected. */
export function canSeeAnalytics(summary: Pick<AccountSummary, "kyc"> | undefined): boolean {
  return summary?.kyc?.status !== "rejected";
}
