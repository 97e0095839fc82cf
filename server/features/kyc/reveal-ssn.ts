import { eq } from "drizzle-orm";
import { ONBOARDING_ADMIN_MESSAGES } from "@/contract/admin-onboarding";
import { AUDIT_MESSAGES, auditReason, READ_ACTIONS, type RevealSsnResponse } from "@/contract/audit";
import type { StaffRole } from "@/contract/staff";
import type { Db } from "@/server/db/client";
import { kycApplications } from "@/server/db/schema";
import { writeAudit } from "@/server/lib/audit";
import { decryptField } from "@/server/lib/crypto";
import { AppError } from "@/server/lib/errors";

export interface RevealSsnInput {
  actorId: string;
  actorRole: StaffRole;
  kycId: string;
  reason: string | undefined;
}

/**
 * The one way to see a full SSN: a staff member gives a reason, and the audit row (who, in which role, why)
 * commits before the number is answered — a failed audit write means no SSN. Everywhere else it stays masked.
 */
export async function revealSsn(db: Db, dataKey: Buffer, input: RevealSsnInput): Promise<RevealSsnResponse> {
  const reason = auditReason.safeParse(input.reason ?? "");
  if (!reason.success) {
    throw new AppError("reason_required", AUDIT_MESSAGES.reasonRequired, { field: "reason" });
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ userId: kycApplications.userId, ssnCiphertext: kycApplications.ssnCiphertext })
      .from(kycApplications)
      .where(eq(kycApplications.id, input.kycId));
    if (!row) throw new AppError("NOT_FOUND", ONBOARDING_ADMIN_MESSAGES.kycNotFound);
    let digits: string;
    try {
      digits = decryptField(dataKey, row.ssnCiphertext).replace(/\D/g, "");
    } catch {
      // Sealed under another DATA_KEY (or damaged): nothing is revealed, so nothing is audited.
      throw new AppError("ssn_unreadable", AUDIT_MESSAGES.ssnUnreadable);
    }
    await writeAudit(tx, {
      actorId: input.actorId,
      actorRole: input.actorRole,
      action: READ_ACTIONS.ssnRevealed,
      targetType: "kyc_application",
      targetId: input.kycId,
      subjectUserId: row.userId,
      reason: reason.data,
    });
    return { ssn: `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}` };
  });
}
