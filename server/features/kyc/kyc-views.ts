import type { AdminAccountRequest, AdminKycApplication, OnboardingUser } from "@/contract/admin-onboarding";
import { type AccountRequest, type KycApplication, maskDateOfBirth, maskSsn } from "@/contract/kyc";
import type { accountRequests, kycApplications, users } from "@/server/db/schema";

export type KycRow = typeof kycApplications.$inferSelect;
export type AccountRequestRow = typeof accountRequests.$inferSelect;
type UserRow = typeof users.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The applicant's view: the SSN only ever as `***-**-1234`, never the ciphertext or blind index. */
export function toKycApplication(row: KycRow): KycApplication {
  return {
    id: row.id,
    userId: row.userId,
    accountType: row.accountType,
    companyName: row.companyName,
    firstName: row.firstName,
    lastName: row.lastName,
    street: row.street,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    address: row.address,
    ssn: maskSsn(row.ssnLast4),
    dateOfBirth: maskDateOfBirth(row.dateOfBirth),
    drivingLicenseFront: row.drivingLicenseFront,
    drivingLicenseBack: row.drivingLicenseBack,
    llcDocument: row.llcDocument,
    einDocument: row.einDocument,
    status: row.status,
    adminNotes: row.adminNotes,
    submittedAt: row.submittedAt.toISOString(),
    reviewedAt: iso(row.reviewedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export function toAccountRequest(row: AccountRequestRow): AccountRequest {
  return {
    id: row.id,
    userId: row.userId,
    kycApplicationId: row.kycApplicationId,
    accountType: row.accountType,
    status: row.status,
    statusMessage: row.statusMessage,
    accountNumber: row.accountNumber,
    routingNumber: row.routingNumber,
    approvedAt: iso(row.approvedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export function toOnboardingUser(user: UserRow): OnboardingUser {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    pillarTag: user.pillarTag,
    phoneNumber: user.phoneNumber,
  };
}

export function toAdminKycApplication(row: KycRow, user: UserRow): AdminKycApplication {
  return { ...toKycApplication(row), user: toOnboardingUser(user), isCurrent: row.supersededAt === null };
}

export function toAdminAccountRequest(
  row: AccountRequestRow,
  user: UserRow,
  kycStatus: KycRow["status"] | null,
): AdminAccountRequest {
  return {
    ...toAccountRequest(row),
    adminNotes: row.adminNotes,
    kycStatus,
    user: toOnboardingUser(user),
    isCurrent: row.supersededAt === null,
  };
}
