import type { FastifyInstance } from "fastify";
import { APPROVALS_ENDPOINTS } from "@/contract/approvals";
import type { ApprovalActions } from "@/server/features/approvals/approval-actions";
import { decideApproval } from "@/server/features/approvals/decide-approval";
import { findApprovals } from "@/server/features/approvals/find-approvals";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

export interface ApprovalRoutesOptions {
  /** What an approval replays, per kind (each owning feature's action, gathered by server/app.ts). */
  actions: ApprovalActions;
}

/**
 * Maker-checker under /api/admin/approvals: the queue, and a second staff member's decision. Approvals imports
 * no other feature: the actions it replays are handed to it by server/app.ts (the step-up check by the
 * registration, from the contract).
 */
export async function approvalRoutes(app: FastifyInstance, { actions }: ApprovalRoutesOptions) {
  const { db } = app.deps.database;
  registerEndpoints(app, APPROVALS_ENDPOINTS, {
    "GET /api/admin/approvals": (request) => findApprovals(db, request.query),
    "POST /api/admin/approvals/:id/approve": (request) =>
      decideApproval(
        db,
        actions,
        signedInUser(request).id,
        request.params.id,
        "approve",
        request.body.reason,
      ),
    "POST /api/admin/approvals/:id/reject": (request) =>
      decideApproval(db, actions, signedInUser(request).id, request.params.id, "reject", request.body.reason),
  });
}
