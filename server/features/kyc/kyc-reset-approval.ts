import { and, eq, isNull, ne } from "drizzle-orm";
import { ONBOARDING_ADMIN_MESSAGES, type ReviewKycResponse } from "@/contract/admin-onboarding";
import type { Db } from "@/server/db/client";
import { kycApplications } from "@/server/db/schema";
import {
  type ApprovalAction,
  approvalCustomer,
  approvalPayload,
} from "@/server/features/approvals/approval-actions";
import {
  requireReason,
  type StaffActor,
  type Submitted,
  submitForApproval,
} from "@/server/features/approvals/request-approval";
import {
  applyKycDecision,
  kycDecisionError,
  lockKycApplicationFor,
} from "@/server/features/kyc/review-kyc-application";
import { AppError } from "@/server/lib/errors";

/** Reopening a rejected KYC application always needs a second (compliance) person. */
export async function submitKycReset(
  db: Db,
  maker: StaffActor,
  kycId: string,
  reason: string | null | undefined,
): Promise<Submitted<ReviewKycResponse>> {
  return submitForApproval(db, maker, async (tx) => {
    // The state's own refusals first (they say why nothing can happen), then the reason.
    const row = await lockKycApplicationFor(tx, kycId, "reset");
    const [taken] = await tx
      .select({ id: kycApplications.id })
      .from(kycApplications)
      .where(
        and(
          eq(kycApplications.ssnIndex, row.ssnIndex),
          ne(kycApplications.id, row.id),
          isNull(kycApplications.supersededAt),
          ne(kycApplications.status, "rejected"),
        ),
      )
      .limit(1);
    if (taken) throw new AppError("ssn_duplicate", ONBOARDING_ADMIN_MESSAGES.ssnTakenOnReset);
    const text = requireReason(reason);
    return {
      kind: "kyc_reset",
      userId: row.userId,
      targetKey: row.id,
      payload: { op: "kyc_reset", kycId: row.id },
      amount: null,
      before: { kycStatus: row.status },
      after: { kycStatus: "pending" },
      reason: text,
    };
  });
}

/** What a second compliance member's approval replays (registered with approvals in server/app.ts). */
export const approveKycReset: ApprovalAction = async (tx, row) => {
  const payload = approvalPayload(row, ["kyc_reset"]);
  approvalCustomer(row);
  try {
    const kyc = await applyKycDecision(tx, row.makerId, payload.kycId, "reset", null);
    return { message: ONBOARDING_ADMIN_MESSAGES.kycReset, kyc };
  } catch (err) {
    throw kycDecisionError(err);
  }
};
