import type { FastifyInstance } from "fastify";
import { ADMIN_ENDPOINTS } from "@/contract/admin";
import { deleteUser } from "@/server/features/admin/delete-user";
import { findUsers, getAdminStats, getUser } from "@/server/features/admin/find-users";
import { sendPaymentNotification, sendTestEmail } from "@/server/features/admin/send-admin-mail";
import { submitUnfreeze } from "@/server/features/admin/unfreeze-user";
import { registerEndpoints } from "@/server/lib/endpoints";
import { AppError } from "@/server/lib/errors";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/** /api/admin/*: the overview and customers; each route behind requireAdmin (its contract's access). */
export async function adminRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  // Unknown admin paths answer like known ones: nobody but an admin learns which routes exist.
  app.setNotFoundHandler({ preHandler: requireAdmin }, (request) => {
    throw new AppError("NOT_FOUND", `No route for ${request.method} ${request.url.split("?")[0]}`);
  });

  registerEndpoints(app, ADMIN_ENDPOINTS, {
    "GET /api/admin/stats": () => getAdminStats(db),
    "GET /api/admin/users": (request) => findUsers(db, request.query),
    "GET /api/admin/users/:userId": (request) => getUser(db, request.params.userId),
    "DELETE /api/admin/users/:userId": async (request) => {
      await deleteUser(db, signedInUser(request).id, request.params.userId);
      return { message: "User deleted successfully" };
    },
    // Lifting a freeze waits for a second compliance member (maker-checker): 202 with the pending approval.
    "POST /api/admin/users/:userId/unfreeze": async (request, reply) => {
      const result = await submitUnfreeze(
        db,
        signedInUser(request),
        request.params.userId,
        request.body.reason,
      );
      return reply.status(result.status).send(result.body);
    },
    "POST /api/admin/test-email": async (request) => {
      const { email } = await sendTestEmail(db, signedInUser(request).id, request.body);
      return { message: `Test email sent successfully to ${email}`, email };
    },
    "POST /api/admin/send-payment-notification": async (request) => {
      await sendPaymentNotification(db, signedInUser(request).id, request.body);
      return { message: "Payment notification email sent successfully" };
    },
  });
}
