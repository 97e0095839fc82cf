import { sql } from "drizzle-orm";
import { z } from "zod";
import { ADMIN_MESSAGES } from "@/contract/admin";
import type { PendingApprovalResponse } from "@/contract/approvals";
import { type LiftSendBlockInput, SELF_LIMIT_MESSAGES, type SelfLimits } from "@/contract/self-limits";
import { type Db, queryRows, type Tx } from "@/server/db/client";
import {
  type ApprovalAction,
  approvalCustomer,
  approvalPayload,
} from "@/server/features/approvals/approval-actions";
import { type StaffActor, submitForApproval } from "@/server/features/approvals/request-approval";
import { getSelfLimits } from "@/server/features/transfers/self-limits";
import { writeAudit } from "@/server/lib/audit";
import { AppError } from "@/server/lib/errors";
import { notify } from "@/server/lib/notifications";

/**
 * The compliance override of a customer's own block on crypto sends (decision 047): for a
 * customer locked out of their money by a block they say they did not set (or were made to set), after the undo
 * link's hours have passed. One compliance member proposes it with the reason and how they re-verified the
 * customer's identity; a second one approves it in the Approvals tab (the approvals' maker-checker: a different
 * member, roles re-read, one pending per customer, replays decide once). Approved, the block and any cooldown end.
 */

const blockRow = z.object({
  sends_blocked: z.boolean(),
  block_on: z.boolean(),
  blocked_until: z.coerce.date().nullable(),
});

/** The customer's block in force now, their row locked (404 for no customer or staff, 409 when not blocked). */
async function lockBlockedCustomer(tx: Tx, userId: string) {
  const [customer] = await queryRows(
    tx,
    sql`select id from users where id = ${userId}::uuid and cardinality(staff_roles) = 0 for update`,
    z.object({ id: z.string() }),
  );
  if (!customer) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
  const [block] = await queryRows(
    tx,
    sql`select sends_blocked, block_on, blocked_until from self_limits_at(${userId}::uuid, now())`,
    blockRow,
  );
  if (!block?.sends_blocked) throw new AppError("not_sends_blocked", SELF_LIMIT_MESSAGES.notBlocked);
  return block;
}

/** GET /api/admin/users/:userId/self-limits: what compliance reads before proposing a lift (404: no customer). */
export async function customerSelfLimits(db: Db, userId: string): Promise<SelfLimits> {
  const [customer] = await queryRows(
    db,
    sql`select id from users where id = ${userId}::uuid and cardinality(staff_roles) = 0`,
    z.object({ id: z.string() }),
  );
  if (!customer) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.userNotFound);
  return getSelfLimits(db, userId);
}

/** POST /api/admin/users/:userId/lift-send-block: always 202, waiting for a second compliance member. */
export async function submitSendBlockLift(
  db: Db,
  maker: StaffActor,
  userId: string,
  input: LiftSendBlockInput,
): Promise<{ status: 202; body: PendingApprovalResponse }> {
  return submitForApproval(db, maker, async (tx) => {
    const block = await lockBlockedCustomer(tx, userId);
    return {
      kind: "send_block_lift",
      userId,
      targetKey: userId,
      payload: { op: "lift_send_block", identityCheck: input.identityCheck },
      amount: null,
      before: { blockOn: block.block_on, blockedUntil: block.blocked_until?.toISOString() ?? null },
      after: { blockOn: false, blockedUntil: null, identityCheck: input.identityCheck },
      reason: input.reason,
    };
  });
}

/** What the second compliance member's approval runs (registered with approvals in server/app.ts). */
export const approveSendBlockLift: ApprovalAction = async (tx, row) => {
  const userId = approvalCustomer(row);
  const { identityCheck } = approvalPayload(row, ["lift_send_block"]);
  const block = await lockBlockedCustomer(tx, userId);
  await tx.execute(sql`select lift_send_block(${userId}::uuid, null)`);
  await notify(tx, userId, "security", {
    title: "Block on crypto sends lifted",
    body: "After checking your identity, our compliance team lifted the block on crypto sends on your account. You can send USDC again.",
    link: "/settings",
  });
  await writeAudit(tx, {
    actorId: row.makerId,
    action: "self_limits.block_lifted",
    targetType: "user",
    targetId: userId,
    before: { blockOn: block.block_on, blockedUntil: block.blocked_until?.toISOString() ?? null },
    after: { blockOn: false, blockedUntil: null, approvalId: row.id, identityCheck },
  });
  return { message: SELF_LIMIT_MESSAGES.lifted };
};
