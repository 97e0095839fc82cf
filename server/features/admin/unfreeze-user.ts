import { eq } from "drizzle-orm";
import { ADMIN_MESSAGES } from "@/contract/admin";
import type { MessageResponse } from "@/contract/auth";
import { SECURITY_MESSAGES } from "@/contract/security";
import type { Db, Tx } from "@/server/db/client";
import { users } from "@/server/db/schema";
import { type ApprovalAction, approvalCustomer } from "@/server/features/approvals/approval-actions";
import {
  requireReason,
  type StaffActor,
  type Submitted,
  submitForApproval,
} from "@/server/features/approvals/request-approval";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { updateUser } from "@/server/lib/write-user";

/**
 * Staff lift a freeze once they have spoken to the customer. The password reset the freeze asked for stays
 * required: only the owner's inbox can clear that.
 */
export async function unfreezeUser(db: Db, adminId: string, userId: string): Promise<MessageResponse> {
  return db.transaction((tx) => liftFreeze(tx, adminId, userId));
}

/** The customer, locked, if frozen (else 404, or 409 `notFrozen`). */
export async function lockFrozenUser(tx: Tx, userId: string): Promise<{ frozenAt: Date }> {
  const [user] = await tx
    .select({ frozenAt: users.frozenAt })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  if (!user) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
  if (!user.frozenAt) throw new AppError("not_frozen", SECURITY_MESSAGES.notFrozen);
  return { frozenAt: user.frozenAt };
}

/** Lifts the freeze inside the caller's transaction (direct, or replayed by an approval); audited. */
export async function liftFreeze(tx: Tx, adminId: string, userId: string): Promise<MessageResponse> {
  const user = await lockFrozenUser(tx, userId);
  // The customer's open sessions carry the user row: updateUser drops them at commit (the banner goes).
  await updateUser(tx, userId, { frozenAt: null, updatedAt: new Date() });
  await writeAudit(tx, {
    actorId: adminId,
    action: "user.unfreeze",
    targetType: "user",
    targetId: userId,
    before: { frozenAt: user.frozenAt.toISOString() },
    after: { frozenAt: null },
  });
  return { message: SECURITY_MESSAGES.unfrozen };
}

/** Lifting a freeze always needs a second (compliance) person. */
export async function submitUnfreeze(
  db: Db,
  maker: StaffActor,
  userId: string,
  reason: string | null | undefined,
): Promise<Submitted<MessageResponse>> {
  return submitForApproval(db, maker, async (tx) => {
    const user = await lockFrozenUser(tx, userId);
    const text = requireReason(reason);
    return {
      kind: "unfreeze",
      userId,
      targetKey: userId,
      payload: { op: "unfreeze" },
      amount: null,
      before: { frozenAt: user.frozenAt.toISOString() },
      after: { frozenAt: null },
      reason: text,
    };
  });
}

/** What a second compliance member's approval replays (registered with approvals in server/app.ts). */
export const approveUnfreeze: ApprovalAction = (tx, row) =>
  liftFreeze(tx, row.makerId, approvalCustomer(row));
