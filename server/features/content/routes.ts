import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { userIdParams } from "@/contract/admin";
import { dashboardContent, updateDashboardContentInput } from "@/contract/dashboard-content";
import { getDashboardContent, updateDashboardContent } from "@/server/features/content/dashboard-content";
import { requireAdmin, requireUser, signedInUser } from "@/server/lib/session-plugin";

/** GET /api/dashboard-content: the signed-in customer's own dashboard texts. */
export async function contentRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireUser);

  app.get("/dashboard-content", { schema: { response: { 200: dashboardContent } } }, (request) =>
    getDashboardContent(db, signedInUser(request).id),
  );
}

/** Under /api/admin: a customer's dashboard texts as staff read and override them. */
export async function adminContentRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/dashboard-content/:userId",
    { schema: { params: userIdParams, response: { 200: dashboardContent } } },
    (request) => getDashboardContent(db, request.params.userId),
  );
  app.put(
    "/dashboard-content/:userId",
    {
      schema: {
        params: userIdParams,
        body: updateDashboardContentInput,
        response: { 200: dashboardContent },
      },
    },
    (request) => updateDashboardContent(db, signedInUser(request).id, request.params.userId, request.body),
  );
}
