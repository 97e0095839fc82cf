import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { pendingApprovalResponse } from "@/contract/approvals";
import { liftSendBlockInput, selfLimitNoteInput, selfLimitNotes, selfLimits } from "@/contract/self-limits";
import {
  adminTransferRequestPage,
  transferRequest,
  transferRequestsQuery,
  updateTransferInput,
} from "@/contract/transfers";
import { findTransferRequests } from "@/server/features/transfers/find-transfer-requests";
import { addSelfLimitNote } from "@/server/features/transfers/self-limits";
import { customerSelfLimits, submitSendBlockLift } from "@/server/features/transfers/send-block-lift";
import { submitTransferStatus } from "@/server/features/transfers/transfer-release";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

const idParams = z.object({ id: z.uuid({ error: "Invalid id" }) });
const userParams = z.object({ userId: z.uuid({ error: "Invalid id" }) });

/** The admin transfer desk under /api/admin: every customer's transfer requests and settling them. */
export async function adminTransferRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/transfer-requests",
    { schema: { querystring: transferRequestsQuery, response: { 200: adminTransferRequestPage } } },
    (request) => findTransferRequests(db, request.query),
  );
  app.put(
    "/transfer-requests/:id",
    {
      schema: {
        params: idParams,
        body: updateTransferInput,
        response: { 200: transferRequest, 202: pendingApprovalResponse },
      },
    },
    async (request, reply) => {
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
  );

  // Staff write a note about a customer's own limits (decision 035); the one change they can make to them is the
  // two-member lift below (decision 047).
  app.post(
    "/users/:userId/self-limit-notes",
    { schema: { params: userParams, body: selfLimitNoteInput, response: { 201: selfLimitNotes } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await addSelfLimitNote(
            app.deps,
            signedInUser(request).id,
            request.params.userId,
            request.body.note,
          ),
        ),
  );

  // The one exception, by two compliance members with the customer's identity re-verified (decision 047): always
  // 202, decided in the Approvals tab.
  app.get(
    "/users/:userId/self-limits",
    { schema: { params: userParams, response: { 200: selfLimits } } },
    (request) => customerSelfLimits(db, request.params.userId),
  );
  app.post(
    "/users/:userId/lift-send-block",
    {
      schema: {
        params: userParams,
        body: liftSendBlockInput,
        response: { 202: pendingApprovalResponse },
      },
    },
    async (request, reply) => {
      const result = await submitSendBlockLift(
        db,
        signedInUser(request),
        request.params.userId,
        request.body,
      );
      return reply.status(result.status).send(result.body);
    },
  );
}
