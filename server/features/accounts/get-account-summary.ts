import type { AccountSummary } from "@/contract/transactions";
import type { Db, DbOrTx } from "@/server/db/client";
import { getBalances } from "@/server/features/accounts/account-queries";
import { getKycStatus, onboardingVersion } from "@/server/features/kyc/get-kyc-status";
import { type Conditional, loadConditional, userEtag } from "@/server/lib/conditional-reply";

/** Spec §3 Account summary: display balances plus the current KYC and account request. */
export async function getAccountSummary(db: DbOrTx, userId: string): Promise<AccountSummary> {
  const [balances, onboarding] = await Promise.all([getBalances(db, userId), getKycStatus(db, userId)]);
  return { ...balances, kyc: onboarding.kyc, accountRequest: onboarding.accountRequest };
}

/** GET /api/account/summary as a conditional request: a current copy costs one small query and a 304. */
export async function getAccountSummaryIfChanged(
  db: Db,
  userId: string,
  ifNoneMatch: string | undefined,
): Promise<Conditional<AccountSummary>> {
  const etag = userEtag("summary", userId, await onboardingVersion(db, userId, { withWallet: true }));
  return loadConditional(ifNoneMatch, etag, () => getAccountSummary(db, userId));
}
