import { eq } from "drizzle-orm";
import { ONBOARDING_ADMIN_MESSAGES } from "@/contract/admin-onboarding";
import { AUDIT_MESSAGES, auditReason, READ_ACTIONS, type RevealDateOfBirthResponse } from "@/contract/audit";
import type { StaffRole } from "@/contract/staff";
import type { Db } from "@/server/db/client";
import { kycApplications } from "@/server/db/schema";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";

/**
 * The one way to see a full date of birth, as with the SSN: compliance gives a reason, and the audit row
 * commits before the date is answered. An application made before the date was asked answers null (and is
 * not audited: nothing was read).
 */
export async function revealDateOfBirth(
  db: Db,
  input: { actorId: string; actorRole: StaffRole; kycId: string; reason: string | undefined },
): Promise<RevealDateOfBirthResponse> {
  const reason = auditReason.safeParse(input.reason ?? "");
  if (!reason.success) {
    throw new AppError("reason_required", AUDIT_MESSAGES.reasonRequired, { field: "reason" });
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ userId: kycApplications.userId, dateOfBirth: kycApplications.dateOfBirth })
      .from(kycApplications)
      .where(eq(kycApplications.id, input.kycId));
    if (!row) throw new AppError("NOT_FOUND", ONBOARDING_ADMIN_MESSAGES.kycNotFound);
    if (!row.dateOfBirth) return { dateOfBirth: null };
    await writeAudit(tx, {
      actorId: input.actorId,
      actorRole: input.actorRole,
      action: READ_ACTIONS.dateOfBirthRevealed,
      targetType: "kyc_application",
      targetId: input.kycId,
      subjectUserId: row.userId,
      reason: reason.data,
    });
    return { dateOfBirth: row.dateOfBirth };
  });
}
