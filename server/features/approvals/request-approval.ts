import {
  APPROVAL_CHECKER_ROLES,
  APPROVAL_MESSAGES,
  type ApprovalKind,
  type PendingApprovalResponse,
} from "@/contract/approvals";
import type { StaffRole } from "@/contract/staff";
import type { Db, Tx } from "@/server/db/client";
import { approvals } from "@/server/db/schema";
import type { ApprovalPayload } from "@/server/features/approvals/approval-actions";
import { getApproval } from "@/server/features/approvals/find-approvals";
import { writeAudit } from "@/server/lib/audit";
import { AppError, pgConstraint, pgErrorCode } from "@/server/lib/errors";

export interface StaffActor {
  id: string;
  staffRoles: readonly StaffRole[];
}

/** A direct answer (below the threshold) or a 202 "Sent for approval". */
export type Submitted<T, S extends 200 | 201 = 200> =
  | { status: S; body: T }
  | { status: 202; body: PendingApprovalResponse };

/** The role a staff member acts in for this kind: the kind's own role when held, else owner. */
export function actingRole(kind: ApprovalKind, roles: readonly StaffRole[]): StaffRole {
  return (
    APPROVAL_CHECKER_ROLES[kind].find((role) => roles.includes(role)) ??
    (roles.includes("owner") ? "owner" : (roles[0] ?? "owner"))
  );
}

/** A change that needs approval needs a reason: 400 naming the field. */
export function requireReason(reason: string | null | undefined): string {
  const text = reason?.trim();
  if (!text) {
    throw new AppError("reason_required", APPROVAL_MESSAGES.reasonRequired, { field: "reason" });
  }
  return text;
}

export interface ApprovalRequest {
  kind: ApprovalKind;
  /** The customer it concerns; null for a change that concerns no one customer (a savings rate). */
  userId: string | null;
  /** The existing row it acts on (one pending approval per target); null when it creates one. */
  targetKey: string | null;
  payload: ApprovalPayload;
  amount: number | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  reason: string;
  /** Credits: the maker's and the customer's rolling-window totals, this one included. */
  creditWindow?: { makerCents: number; customerCents: number };
}

/** Writes the pending approval and its audit row; nothing customer-facing changes. */
async function insertApproval(tx: Tx, maker: StaffActor, request: ApprovalRequest): Promise<string> {
  const [row] = await tx
    .insert(approvals)
    .values({
      kind: request.kind,
      userId: request.userId,
      targetKey: request.targetKey,
      payload: request.payload,
      amount: request.amount,
      before: request.before,
      after: request.after,
      reason: request.reason,
      makerId: maker.id,
      makerRole: actingRole(request.kind, maker.staffRoles),
      makerWindowTotal: request.creditWindow?.makerCents ?? null,
      customerWindowTotal: request.creditWindow?.customerCents ?? null,
    })
    .returning({ id: approvals.id });
  await writeAudit(tx, {
    actorId: maker.id,
    action: "approval.request",
    targetType: "approval",
    targetId: row!.id,
    before: request.before,
    after: { kind: request.kind, userId: request.userId, amount: request.amount, ...request.after },
    reason: request.reason,
  });
  return row!.id;
}

/** What one step decided inside its transaction: it made the change itself, or the change waits. */
export type Decided<T> = { direct: T } | { approval: ApprovalRequest };
export const madeDirectly = <T>(direct: T): Decided<T> => ({ direct });
export const waitsForApproval = (approval: ApprovalRequest): Decided<never> => ({ approval });

/**
 * Runs `decide` in one transaction: it either makes the change (its result comes back as `direct`) or describes
 * a change that waits, stored here as a pending approval in the same transaction, so a check and the change it
 * allows never come apart. A second pending request for the same target answers 409 `approvalPending`.
 */
export async function runOrSubmitForApproval<T>(
  db: Db,
  maker: StaffActor,
  decide: (tx: Tx) => Promise<Decided<T>>,
): Promise<{ direct: T } | { status: 202; body: PendingApprovalResponse }> {
  let outcome: { direct: T } | { approvalId: string };
  try {
    outcome = await db.transaction(async (tx) => {
      const decided = await decide(tx);
      return "direct" in decided
        ? decided
        : { approvalId: await insertApproval(tx, maker, decided.approval) };
    });
  } catch (err) {
    if (pgErrorCode(err) === "23505" && pgConstraint(err) === "approvals_pending_target_key") {
      throw new AppError("approval_pending", APPROVAL_MESSAGES.alreadyPending);
    }
    throw err;
  }
  if ("direct" in outcome) return outcome;
  const approval = await getApproval(db, outcome.approvalId);
  return {
    status: 202,
    body: { message: APPROVAL_MESSAGES.sentForApproval, pendingApproval: true, approval },
  };
}

/**
 * Runs `prepare` (which locks and checks the target, then describes the change) and stores the approval in one
 * transaction. A second pending request for the same target answers 409 `approvalPending`.
 */
export async function submitForApproval(
  db: Db,
  maker: StaffActor,
  prepare: (tx: Tx) => Promise<ApprovalRequest>,
): Promise<{ status: 202; body: PendingApprovalResponse }> {
  const outcome = await runOrSubmitForApproval<never>(db, maker, async (tx) =>
    waitsForApproval(await prepare(tx)),
  );
  if ("direct" in outcome) throw new Error("submitForApproval never runs the change itself");
  return outcome;
}
