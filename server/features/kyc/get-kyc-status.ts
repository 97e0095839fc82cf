import { and, eq, isNull, sql } from "drizzle-orm";
import type { KycStatusResponse, OnboardingState } from "@/contract/kyc";
import { toOnboardingState } from "@/contract/onboarding-state";
import type { Db, DbOrTx } from "@/server/db/client";
import { preparedPerDatabase } from "@/server/db/prepared";
import { accountRequests, kycApplications, users } from "@/server/db/schema";
import {
  type AccountRequestRow,
  type KycRow,
  toAccountRequest,
  toKycApplication,
} from "@/server/features/kyc/kyc-views";
import { type Conditional, loadConditional, userEtag } from "@/server/lib/conditional-reply";
import { AppError } from "@/server/lib/errors";

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

/** For the admin's dashboard preview: the customer's onboarding as their own timeline shows it. */
export async function getOnboardingState(db: DbOrTx, userId: string): Promise<OnboardingState> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("NOT_FOUND", "User not found");
  return toOnboardingState(await getKycStatus(db, userId));
}

/**
 * What the onboarding views' ETags hang on: a digest of the whole current KYC and account-request rows, so any
 * change moves it. Joined to a one-row relation `u` holding the user id; the account summary adds its wallet.
 */
export const currentOnboardingJoins = sql`left join kyc_applications k on k.user_id = u.id and k.superseded_at is null
          left join account_requests a on a.user_id = u.id and a.superseded_at is null`;
export const currentOnboardingDigests = sql`coalesce(md5(k::text), '-'),
           coalesce(md5(a::text), '-')`;

const kycVersionQuery = preparedPerDatabase((db) =>
  db
    .select({ v: sql<string>`concat_ws('/', '-', ${currentOnboardingDigests})` })
    .from(sql`(select ${sql.placeholder("userId")}::uuid as id) u ${currentOnboardingJoins}`)
    .prepare("kyc_status_version"),
);

async function kycStatusVersion(db: Db, userId: string): Promise<string> {
  const [row] = await kycVersionQuery(db).execute({ userId });
  return row!.v;
}

/** GET /api/kyc/status as a conditional request: a current copy costs one small query and a 304. */
export async function getKycStatusIfChanged(
  db: Db,
  userId: string,
  ifNoneMatch: string | undefined,
): Promise<Conditional<KycStatusResponse>> {
  const etag = userEtag("kyc", userId, await kycStatusVersion(db, userId));
  return loadConditional(ifNoneMatch, etag, () => getKycStatus(db, userId));
}
