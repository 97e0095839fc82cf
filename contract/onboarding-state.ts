// No zod here (only its types): the dashboard imports this, and zod costs ~26 KB gzip and its schema building
// on a phone (report-bundle.mjs checks the dashboard loads no zod).
import type { KycStatusResponse, OnboardingState } from "@/contract/kyc";

/** The onboarding timeline's view of a KYC status answer (the shape of `onboardingState`). */
export function toOnboardingState(status: KycStatusResponse): OnboardingState {
  const { kyc, accountRequest: request } = status;
  return {
    kyc: kyc
      ? {
          status: kyc.status,
          adminNotes: kyc.adminNotes,
          submittedAt: kyc.submittedAt,
          reviewedAt: kyc.reviewedAt,
        }
      : null,
    accountRequest: request
      ? {
          accountType: request.accountType,
          status: request.status,
          statusMessage: request.statusMessage,
          accountNumberLast4: request.accountNumber ? request.accountNumber.slice(-4) : null,
          createdAt: request.createdAt,
          approvedAt: request.approvedAt,
        }
      : null,
  };
}
