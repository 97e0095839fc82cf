import { eq, sql } from "drizzle-orm";
import { ONBOARDING_ADMIN_MESSAGES, type ReviewKycResponse } from "@/contract/admin-onboarding";
import { COMPLIANCE_MESSAGES } from "@/contract/compliance";
import type { Db, Tx } from "@/server/db/client";
import { kycApplications, users } from "@/server/db/schema";
import { hasOpenCase } from "@/server/features/compliance/screen";
import { type KycRow, toAdminKycApplication } from "@/server/features/kyc/kyc-views";
import { writeAudit } from "@/server/lib/audit";
import { AppError, pgConstraint, pgErrorCode } from "@/server/lib/errors";
import { kycApprovedMail, kycRejectedMail } from "@/server/lib/mail/onboarding-templates";
import { wakeMailWorker } from "@/server/lib/mail/outbox";
import { notify } from "@/server/lib/notifications";

export type KycDecision = "approve" | "reject" | "reset";

/** Which state each decision starts from, and where it leads (reset only takes rejected back to pending). */
const MOVES: Record<KycDecision, { from: KycRow["status"]; to: KycRow["status"]; refusal: string }> = {
  approve: { from: "pending", to: "approved", refusal: ONBOARDING_ADMIN_MESSAGES.onlyPendingApprove },
  reject: { from: "pending", to: "rejected", refusal: ONBOARDING_ADMIN_MESSAGES.onlyPendingReject },
  reset: { from: "rejected", to: "pending", refusal: ONBOARDING_ADMIN_MESSAGES.onlyRejectedReset },
};

/** An admin's approve / reject (reason required) / reset on one KYC application; audited, and mailed to the user. */
export async function reviewKycApplication(
  db: Db,
  actorId: string,
  id: string,
  decision: KycDecision,
  notes: string | null | undefined,
): Promise<ReviewKycResponse> {
  if (decision === "reject" && !notes)
    throw new AppError("BAD_REQUEST", ONBOARDING_ADMIN_MESSAGES.rejectReasonRequired);
  try {
    const result = await db.transaction((tx) => applyKycDecision(tx, actorId, id, decision, notes));
    wakeMailWorker();
    const message =
      decision === "reset" ? ONBOARDING_ADMIN_MESSAGES.kycReset : ONBOARDING_ADMIN_MESSAGES.kycUpdated;
    return { message, kyc: result };
  } catch (err) {
    throw kycDecisionError(err);
  }
}

/** Reopening a rejected application puts its SSN back in play; someone else may hold it by now. */
export function kycDecisionError(err: unknown): unknown {
  if (pgErrorCode(err) === "23505" && pgConstraint(err) === "kyc_applications_ssn_live_key") {
    return new AppError("ssn_duplicate", ONBOARDING_ADMIN_MESSAGES.ssnTakenOnReset);
  }
  return err;
}

/** The application, locked, if `decision` may apply to it now (else 404/409 with the spec's refusal). */
export async function lockKycApplicationFor(tx: Tx, id: string, decision: KycDecision): Promise<KycRow> {
  const move = MOVES[decision];
  const [row] = await tx.select().from(kycApplications).where(eq(kycApplications.id, id)).for("update");
  if (!row) throw new AppError("NOT_FOUND", ONBOARDING_ADMIN_MESSAGES.kycNotFound);
  if (row.supersededAt) throw new AppError("CONFLICT", ONBOARDING_ADMIN_MESSAGES.superseded);
  if (row.status !== move.from) throw new AppError("CONFLICT", move.refusal, { status: row.status });
  return row;
}

/** One decision inside the caller's transaction (direct, or replayed by an approval): audited and mailed. */
export async function applyKycDecision(
  tx: Tx,
  actorId: string,
  id: string,
  decision: KycDecision,
  notes: string | null | undefined,
) {
  const move = MOVES[decision];
  const row = await lockKycApplicationFor(tx, id, decision);
  // A sanctions hit waits for compliance's decision on the case before the identity check can pass.
  if (decision === "approve" && (await hasOpenCase(tx, row.userId))) {
    throw new AppError("compliance_case_open", COMPLIANCE_MESSAGES.caseOpenOnKyc);
  }
  const [user] = await tx.select().from(users).where(eq(users.id, row.userId));

  const [updated] = await tx
    .update(kycApplications)
    .set({
      status: move.to,
      adminNotes: decision === "reset" ? row.adminNotes : (notes ?? row.adminNotes),
      reviewedAt: decision === "reset" ? null : sql`now()`,
      reviewedBy: decision === "reset" ? null : actorId,
      updatedAt: sql`now()`,
    })
    .where(eq(kycApplications.id, id))
    .returning();
  await writeAudit(tx, {
    actorId,
    action: `kyc.${decision}`,
    targetType: "kyc_application",
    targetId: id,
    before: { status: row.status, adminNotes: row.adminNotes },
    after: { status: updated!.status, adminNotes: updated!.adminNotes },
  });
  if (decision === "approve") {
    await notify(
      tx,
      row.userId,
      "account_decision",
      { title: "Identity verified", body: "Your identity verification was approved.", link: "/dashboard" },
      kycApprovedMail(user!.email, user!.firstName),
    );
  }
  if (decision === "reject") {
    await notify(
      tx,
      row.userId,
      "account_decision",
      { title: "Identity verification not approved", body: notes!, link: "/dashboard" },
      kycRejectedMail(user!.email, user!.firstName, notes!),
    );
  }
  return toAdminKycApplication(updated!, user!);
}
