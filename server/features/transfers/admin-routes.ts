import type { FastifyInstance } from "fastify";
import { TRANSFER_ADMIN_ENDPOINTS } from "@/contract/transfers-admin";
import { findTransferRequests } from "@/server/features/transfers/find-transfer-requests";
import { addSelfLimitNote } from "@/server/features/transfers/self-limits";
import { customerSelfLimits, submitSendBlockLift } from "@/server/features/transfers/send-block-lift";
import { submitTransferStatus } from "@/server/features/transfers/transfer-release";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/** The admin transfer desk under /api/admin: every customer's transfer requests and settling them. */
export async function adminTransferRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;

  registerEndpoints(app, TRANSFER_ADMIN_ENDPOINTS, {
    "GET /api/admin/transfer-requests": (request) => findTransferRequests(db, request.query),
    "PUT /api/admin/transfer-requests/:id": async (request, reply) => {
      const result = await submitTransferStatus(
        db,
        signedInUser(request),
        request.params.id,
        request.body,
        app.deps.config.sanctionsNameThreshold,
        app.deps.config.chain && { chainId: app.deps.config.chain.chainId },
      );
      return reply.status(result.status).send(result.body);
    },
    // Staff write a note about a customer's own limits (decision 035); the one change they can make to them is the
    // two-member lift below (decision 047).
    "POST /api/admin/users/:userId/self-limit-notes": (request) =>
      addSelfLimitNote(app.deps, signedInUser(request).id, request.params.userId, request.body.note),
    // The one exception, by two compliance members with the customer's identity re-verified (decision 047): always
    // 202, decided in the Approvals tab.
    "GET /api/admin/users/:userId/self-limits": (request) => customerSelfLimits(db, request.params.userId),
    "POST /api/admin/users/:userId/lift-send-block": async (request, reply) => {
      const result = await submitSendBlockLift(
        db,
        signedInUser(request),
        request.params.userId,
        request.body,
      );
      return reply.status(result.status).send(result.body);
    },
  });
}
