import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { AdminAccountRequest, AdminKycApplication } from "@/contract/admin-onboarding";
import type { Page, PageQuery } from "@/contract/pages";
import type { DbOrTx } from "@/server/db/client";
import { accountRequests, kycApplications, users } from "@/server/db/schema";
import { toAdminAccountRequest, toAdminKycApplication } from "@/server/features/kyc/kyc-views";
import { listSearch } from "@/server/lib/customer-search";
import { beforeTimeKey, continuedAfter, exactTime, toPage } from "@/server/lib/keyset-page";

type StatusFilter<S extends string> = PageQuery & { status: S | "all" };

/** One page of KYC applications, newest first, with the applicant; SSNs masked. */
export async function findKycApplications(
  db: DbOrTx,
  { cursor, limit, q, status }: StatusFilter<"pending" | "approved" | "rejected">,
): Promise<Page<AdminKycApplication>> {
  const filters = and(
    status === "all" ? undefined : eq(kycApplications.status, status),
    beforeTimeKey(kycApplications.createdAt, kycApplications.id, cursor),
  );
  const search = await listSearch(db, q, {
    table: kycApplications,
    order: { kind: "time", createdAt: kycApplications.createdAt, id: kycApplications.id },
    userId: kycApplications.userId,
    filters,
    ownText: [
      sql`${kycApplications.firstName} || ' ' || ${kycApplications.lastName}`,
      kycApplications.companyName,
    ],
  });
  const rows = await db
    .select({ kyc: kycApplications, user: users, key: exactTime(kycApplications.createdAt) })
    .from(kycApplications)
    .innerJoin(users, eq(users.id, kycApplications.userId))
    .where(and(filters, search.where))
    .orderBy(desc(kycApplications.createdAt), desc(kycApplications.id))
    .limit(limit + 1);
  const page = toPage(
    rows,
    limit,
    (r) => [r.key, r.kyc.id],
    (r) => toAdminKycApplication(r.kyc, r.user),
  );
  return continuedAfter(page, search);
}

/** One page of account requests, newest first, with the applicant. */
export async function findAccountRequests(
  db: DbOrTx,
  { cursor, limit, q, status }: StatusFilter<"pending" | "in_review" | "approved" | "rejected">,
): Promise<Page<AdminAccountRequest>> {
  const filters = and(
    status === "all" ? undefined : eq(accountRequests.status, status),
    beforeTimeKey(accountRequests.createdAt, accountRequests.id, cursor),
  );
  const search = await listSearch(db, q, {
    table: accountRequests,
    order: { kind: "time", createdAt: accountRequests.createdAt, id: accountRequests.id },
    userId: accountRequests.userId,
    filters,
    ownText: [accountRequests.accountNumber],
  });
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
    .where(and(filters, search.where))
    .orderBy(desc(accountRequests.createdAt), desc(accountRequests.id))
    .limit(limit + 1);
  const page = toPage(
    rows,
    limit,
    (r) => [r.key, r.request.id],
    (r) => toAdminAccountRequest(r.request, r.user, r.kycStatus),
  );
  return continuedAfter(page, search);
}
