import type { AccountRequestStatus, KycStatus } from "@/contract/kyc";

/** What the send-money gate reads: the customer's current KYC application and account request. */
export interface SendMoneyState {
  kyc: { status: KycStatus } | null;
  accountRequest: { status: AccountRequestStatus; accountNumber: string | null } | null;
}

/**
 * Who may send money: an approved checking account with an account number and an approved KYC, both current.
 * The server's SQL gate (can_send_money, migration 0014) is the same rule; send-money-gate.api.test.ts holds
 * the two together. Stricter than the spec's "KYC not rejected" (README, Design notes): money never leaves an
 * account whose identity is not verified.
 */
export function canSendMoney({ kyc, accountRequest }: SendMoneyState): boolean {
  return (
    accountRequest?.status === "approved" &&
    Boolean(accountRequest.accountNumber) &&
    kyc?.status === "approved"
  );
}
