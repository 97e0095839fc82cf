import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  adminStats,
  adminUser,
  adminUserPage,
  adminUserQuery,
  paymentNotificationInput,
  testEmailInput,
  testEmailResponse,
  userIdParams,
} from "@/contract/admin";
import { pendingApprovalResponse, unfreezeInput } from "@/contract/approvals";
import { messageResponse } from "@/contract/auth";
import { deleteUser } from "@/server/features/admin/delete-user";
import { findUsers, getAdminStats, getUser } from "@/server/features/admin/find-users";
import { sendPaymentNotification, sendTestEmail } from "@/server/features/admin/send-admin-mail";
import { submitUnfreeze } from "@/server/features/admin/unfreeze-user";
import { AppError } from "@/server/lib/errors";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/** /api/admin/*: every route behind requireAdmin (401 signed out, 403 for customers), set once here. */
export async function adminRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  // onRequest, before the body is parsed: an outsider learns nothing from validation errors.
  app.addHook("onRequest", requireAdmin);
  // Unknown admin paths answer like known ones: nobody but an admin learns which routes exist.
  app.setNotFoundHandler({ preHandler: requireAdmin }, (request) => {
    throw new AppError("NOT_FOUND", `No route for ${request.method} ${request.url.split("?")[0]}`);
  });

  app.get("/stats", { schema: { response: { 200: adminStats } } }, () => getAdminStats(db));

  app.get(
    "/users",
    { schema: { querystring: adminUserQuery, response: { 200: adminUserPage } } },
    (request) => findUsers(db, request.query),
  );

  app.get("/users/:userId", { schema: { params: userIdParams, response: { 200: adminUser } } }, (request) =>
    getUser(db, request.params.userId),
  );

  app.delete(
    "/users/:userId",
    { schema: { params: userIdParams, response: { 200: messageResponse } } },
    async (request) => {
      await deleteUser(db, signedInUser(request).id, request.params.userId);
      return { message: "User deleted successfully" };
    },
  );

  // Lifting a freeze waits for a second compliance member (maker-checker): 202 with the pending approval.
  app.post(
    "/users/:userId/unfreeze",
    {
      schema: {
        params: userIdParams,
        body: unfreezeInput,
        response: { 200: messageResponse, 202: pendingApprovalResponse },
      },
    },
    async (request, reply) => {
      const result = await submitUnfreeze(
        db,
        signedInUser(request),
        request.params.userId,
        request.body.reason,
      );
      return reply.status(result.status).send(result.body);
    },
  );

  app.post(
    "/test-email",
    { schema: { body: testEmailInput, response: { 200: testEmailResponse } } },
    async (request) => {
      const { email } = await sendTestEmail(db, signedInUser(request).id, request.body);
      return { message: `Test email sent successfully to ${email}`, email };
    },
  );

  app.post(
    "/send-payment-notification",
    { schema: { body: paymentNotificationInput, response: { 200: messageResponse } } },
    async (request) => {
      await sendPaymentNotification(db, signedInUser(request).id, request.body);
      return { message: "Payment notification email sent successfully" };
    },
  );
}
