import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  approvalPage,
  approvalsQuery,
  approveApprovalInput,
  decideApprovalResponse,
  rejectApprovalInput,
} from "@/contract/approvals";
import type { ApprovalActions } from "@/server/features/approvals/approval-actions";
import { decideApproval } from "@/server/features/approvals/decide-approval";
import { findApprovals } from "@/server/features/approvals/find-approvals";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

const idParams = z.object({ id: z.uuid({ error: "Invalid id" }) });

export interface ApprovalRoutesOptions {
  /** The fresh second-factor check (auth's requireFreshStepUp, passed in by server/app.ts). */
  requireFreshStepUp: (request: FastifyRequest) => Promise<void>;
  /** What an approval replays, per kind (each owning feature's action, gathered by server/app.ts). */
  actions: ApprovalActions;
}

/**
 * Maker-checker under /api/admin/approvals: the queue, and a second staff member's decision. Approvals imports
 * no other feature: the step-up check and the actions it replays are handed to it by server/app.ts.
 */
export async function approvalRoutes(
  instance: FastifyInstance,
  { requireFreshStepUp, actions }: ApprovalRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/approvals",
    { schema: { querystring: approvalsQuery, response: { 200: approvalPage } } },
    (request) => findApprovals(db, request.query),
  );
  // Approving moves money or identity state like the direct action does, so it asks for the same fresh proof;
  // rejecting is the checker's decision on the same request, so it is signed the same way.
  app.post(
    "/approvals/:id/approve",
    {
      schema: { params: idParams, body: approveApprovalInput, response: { 200: decideApprovalResponse } },
      preHandler: requireFreshStepUp,
    },
    (request) =>
      decideApproval(
        db,
        actions,
        signedInUser(request).id,
        request.params.id,
        "approve",
        request.body.reason,
      ),
  );
  app.post(
    "/approvals/:id/reject",
    {
      schema: { params: idParams, body: rejectApprovalInput, response: { 200: decideApprovalResponse } },
      preHandler: requireFreshStepUp,
    },
    (request) =>
      decideApproval(db, actions, signedInUser(request).id, request.params.id, "reject", request.body.reason),
  );
}
