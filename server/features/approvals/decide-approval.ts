import { eq, sql } from "drizzle-orm";
import {
  APPROVAL_CHECKER_ROLES,
  APPROVAL_MESSAGES,
  type DecideApprovalResponse,
  mayDecideApproval,
} from "@/contract/approvals";
import { STAFF_MESSAGES, type StaffRole } from "@/contract/staff";
import type { Db } from "@/server/db/client";
import { approvals, users } from "@/server/db/schema";
import type { ApprovalActions } from "@/server/features/approvals/approval-actions";
import { getApproval } from "@/server/features/approvals/find-approvals";
import { actingRole } from "@/server/features/approvals/request-approval";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { wakeMailWorker } from "@/server/lib/mail/outbox";

/** The target moved since the request (paid, cancelled, no longer rejected or frozen, customer deleted): 409. */
function staleTarget(err: unknown): unknown {
  if (err instanceof AppError && (err.code === "CONFLICT" || err.code === "NOT_FOUND")) {
    return new AppError("stale_approval", err.message, err.details, err.reason);
  }
  return err;
}

/**
 * Approve (run the change) or reject (nothing moves). The approval row is locked first, so of two checkers
 * racing (approve + approve, or approve + reject) one decides and the other gets 409; the change runs in the
 * same transaction as the status flip, so it happens exactly once or not at all.
 */
export async function decideApproval(
  db: Db,
  actions: ApprovalActions,
  checkerId: string,
  approvalId: string,
  decision: "approve" | "reject",
  reason: string | null | undefined,
): Promise<DecideApprovalResponse> {
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(approvals).where(eq(approvals.id, approvalId)).for("update");
    if (!row) throw new AppError("NOT_FOUND", APPROVAL_MESSAGES.notFound);
    if (row.status !== "pending") {
      throw new AppError("approval_decided", APPROVAL_MESSAGES.notPending, { status: row.status });
    }
    if (row.makerId === checkerId) throw new AppError("self_approval", APPROVAL_MESSAGES.selfApproval);
    // Roles as they are now, not as the session cached them: a revoked checker cannot approve.
    const [checker] = await tx
      .select({ staffRoles: users.staffRoles })
      .from(users)
      .where(eq(users.id, checkerId));
    const roles: StaffRole[] = checker?.staffRoles ?? [];
    const allowed = APPROVAL_CHECKER_ROLES[row.kind];
    if (!mayDecideApproval(roles, row.kind)) {
      throw new AppError("role_required", STAFF_MESSAGES.roleRequired, {
        allowedRoles: [...allowed, "owner"],
      });
    }
    let result: unknown = null;
    if (decision === "approve") {
      try {
        result = await actions[row.kind](tx, row);
      } catch (err) {
        throw staleTarget(err);
      }
    }
    const status = decision === "approve" ? "approved" : "rejected";
    await tx
      .update(approvals)
      .set({
        status,
        checkerId,
        checkerRole: actingRole(row.kind, roles),
        decisionReason: reason?.trim() || null,
        decidedAt: sql`now()`,
      })
      .where(eq(approvals.id, row.id));
    await writeAudit(tx, {
      actorId: checkerId,
      action: `approval.${decision}`,
      targetType: "approval",
      targetId: row.id,
      before: { status: row.status },
      after: { status, kind: row.kind, userId: row.userId, makerId: row.makerId, reason: reason ?? null },
      reason: reason?.trim() || null,
    });
    return { row, result };
  });
  if (decision === "approve") wakeMailWorker();
  return {
    message: decision === "approve" ? APPROVAL_MESSAGES.approved : APPROVAL_MESSAGES.rejected,
    approval: await getApproval(db, approvalId),
    result: outcome.result,
  };
}
