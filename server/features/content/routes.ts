import type { FastifyInstance } from "fastify";
import { DASHBOARD_CONTENT_ADMIN_ENDPOINTS, DASHBOARD_CONTENT_ENDPOINTS } from "@/contract/dashboard-content";
import { getDashboardContent, updateDashboardContent } from "@/server/features/content/dashboard-content";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/** GET /api/dashboard-content: the signed-in customer's own dashboard texts. */
export async function contentRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  registerEndpoints(app, DASHBOARD_CONTENT_ENDPOINTS, {
    "GET /api/dashboard-content": (request) => getDashboardContent(db, signedInUser(request).id),
  });
}

/** Under /api/admin: a customer's dashboard texts as staff read and override them. */
export async function adminContentRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  registerEndpoints(app, DASHBOARD_CONTENT_ADMIN_ENDPOINTS, {
    "GET /api/admin/dashboard-content/:userId": (request) => getDashboardContent(db, request.params.userId),
    "PUT /api/admin/dashboard-content/:userId": (request) =>
      updateDashboardContent(db, signedInUser(request).id, request.params.userId, request.body),
  });
}
