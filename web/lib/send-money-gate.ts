import type { AccountSummary } from "@/contract/transactions";

export const SEND_MONEY_BLOCKED = {
  title: "Feature Unavailable",
  description: "Complete account setup to send money",
} as const;

/** The same gate on Add money, in its own words: nothing is sent there. */
export const ADD_MONEY_BLOCKED = {
  title: "Feature Unavailable",
  description: "Complete account setup to add money",
} as const;

export const ANALYTICS_BLOCKED = {
  title: "Feature Unavailable",
  description: "Complete KYC verification to access analytics",
} as const;

/** The server's gate, as the account summary carries it: the web shows it and never re-derives it. */
export function canSendMoney(summary: Pick<AccountSummary, "canSendMoney"> | undefined): boolean {
  return summary?.canSendMoney === true;
}

/** Analytics is closed only while the KYC application is rejected. */
export function canSeeAnalytics(summary: Pick<AccountSummary, "kyc"> | undefined): boolean {
  return summary?.kyc?.status !== "rejected";
}
