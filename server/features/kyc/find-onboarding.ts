import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { AdminAccountRequest, AdminKycApplication } from "@/contract/admin-onboarding";
import type { Page, PageQuery } from "@/contract/pages";
import type { DbOrTx } from "@/server/db/client";
import { accountRequests, kycApplications, users } from "@/server/db/schema";
import { toAdminAccountRequest, toAdminKycApplication } from "@/server/features/kyc/kyc-views";
import { beforeTimeKey, exactTime, searchAny, toPage } from "@/server/lib/keyset-page";

type StatusFilter<S extends string> = PageQuery & { status: S | "all" };

const applicantColumns = [users.email, users.pillarTag, sql`${users.firstName} || ' ' || ${users.lastName}`];

/** One page of KYC applications, newest first, with the applicant; SSNs masked. */
export async function findKycApplications(
  db: DbOrTx,
  { cursor, limit, q, status }: StatusFilter<"pending" | "approved" | "rejected">,
): Promise<Page<AdminKycApplication>> {
  const rows = await db
    .select({ kyc: kycApplications, user: users, key: exactTime(kycApplications.createdAt) })
    .from(kycApplications)
    .innerJoin(users, eq(users.id, kycApplications.userId))
    .where(
      and(
        status === "all" ? undefined : eq(kycApplications.status, status),
        beforeTimeKey(kycApplications.createdAt, kycApplications.id, cursor),
        searchAny(q, [
          ...applicantColumns,
          sql`${kycApplications.firstName} || ' ' || ${kycApplications.lastName}`,
          kycApplications.companyName,
        ]),
      ),
    )
    .orderBy(desc(kycApplications.createdAt), desc(kycApplications.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => [r.key, r.kyc.id],
    (r) => toAdminKycApplication(r.kyc, r.user),
  );
}

/** One page of account requests, newest first, with the applicant. */
export async function findAccountRequests(
  db: DbOrTx,
  { cursor, limit, q, status }: StatusFilter<"pending" | "in_review" | "approved" | "rejected">,
): Promise<Page<AdminAccountRequest>> {
  const rows = await db
    .select({
      request: accountRequests,
      user: users,
      kycStatus: kycApplications.status,
      key: exactTime(accountRequests.createdAt),
    })
    .from(accountRequests)
    .innerJoin(users, eq(users.id, accountRequests.userId))
    // The customer's current identity check: the Manage dialog says why an account cannot open yet.
    .leftJoin(
      kycApplications,
      and(eq(kycApplications.userId, accountRequests.userId), isNull(kycApplications.supersededAt)),
    )
    .where(
      and(
        status === "all" ? undefined : eq(accountRequests.status, status),
        beforeTimeKey(accountRequests.createdAt, accountRequests.id, cursor),
        searchAny(q, [...applicantColumns, accountRequests.accountNumber]),
      ),
    )
    .orderBy(desc(accountRequests.createdAt), desc(accountRequests.id))
    .limit(limit + 1);
  return toPage(
    rows,
    limit,
    (r) => [r.key, r.request.id],
    (r) => toAdminAccountRequest(r.request, r.user, r.kycStatus),
  );
}
