import { and, eq, isNull } from "drizzle-orm";
import type { KycStatusResponse } from "@/contract/kyc";
import type { DbOrTx } from "@/server/db/client";
import { accountRequests, kycApplications } from "@/server/db/schema";
import {
  type AccountRequestRow,
  type KycRow,
  toAccountRequest,
  toKycApplication,
} from "@/server/features/kyc/kyc-views";

/** The user's current application and account request (the ones not superseded by a newer submission). */
export async function findCurrentOnboarding(
  db: DbOrTx,
  userId: string,
): Promise<{ kyc: KycRow | null; accountRequest: AccountRequestRow | null }> {
  const [kyc] = await db
    .select()
    .from(kycApplications)
    .where(and(eq(kycApplications.userId, userId), isNull(kycApplications.supersededAt)));
  const [accountRequest] = await db
    .select()
    .from(accountRequests)
    .where(and(eq(accountRequests.userId, userId), isNull(accountRequests.supersededAt)));
  return { kyc: kyc ?? null, accountRequest: accountRequest ?? null };
}

export async function getKycStatus(db: DbOrTx, userId: string): Promise<KycStatusResponse> {
  const current = await findCurrentOnboarding(db, userId);
  return {
    kyc: current.kyc ? toKycApplication(current.kyc) : null,
    accountRequest: current.accountRequest ? toAccountRequest(current.accountRequest) : null,
  };
}
