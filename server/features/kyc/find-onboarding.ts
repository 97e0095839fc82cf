import { desc, eq } from "drizzle-orm";
import type { AdminAccountRequest, AdminKycApplication } from "@/contract/admin-onboarding";
import type { DbOrTx } from "@/server/db/client";
import { accountRequests, kycApplications, users } from "@/server/db/schema";
import { toAdminAccountRequest, toAdminKycApplication } from "@/server/features/kyc/kyc-views";

/** Every KYC application, newest first, with its applicant; SSNs masked. */
export async function findKycApplications(db: DbOrTx): Promise<AdminKycApplication[]> {
  const rows = await db
    .select({ kyc: kycApplications, user: users })
    .from(kycApplications)
    .innerJoin(users, eq(users.id, kycApplications.userId))
    .orderBy(desc(kycApplications.createdAt), desc(kycApplications.id));
  return rows.map((r) => toAdminKycApplication(r.kyc, r.user));
}

/** Every account request, newest first, with its applicant. */
export async function findAccountRequests(db: DbOrTx): Promise<AdminAccountRequest[]> {
  const rows = await db
    .select({ request: accountRequests, user: users })
    .from(accountRequests)
    .innerJoin(users, eq(users.id, accountRequests.userId))
    .orderBy(desc(accountRequests.createdAt), desc(accountRequests.id));
  return rows.map((r) => toAdminAccountRequest(r.request, r.user));
}
