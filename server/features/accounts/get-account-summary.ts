import type { AccountSummary } from "@/contract/transactions";
import type { DbOrTx } from "@/server/db/client";
import { getBalances } from "@/server/features/accounts/account-queries";
import { getKycStatus } from "@/server/features/kyc/get-kyc-status";

/** Spec §3 Account summary: display balances plus the current KYC and account request. */
export async function getAccountSummary(db: DbOrTx, userId: string): Promise<AccountSummary> {
  const [balances, onboarding] = await Promise.all([getBalances(db, userId), getKycStatus(db, userId)]);
  return { ...balances, kyc: onboarding.kyc, accountRequest: onboarding.accountRequest };
}
