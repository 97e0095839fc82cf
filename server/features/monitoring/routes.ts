import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { alertIdParams, alertsQuery, monitoringAlert, monitoringAlertPage } from "@/contract/monitoring";
import { findAlerts, getAlert } from "@/server/features/monitoring/find-alerts";
import { requireAdmin } from "@/server/lib/session-plugin";

/** Transaction-monitoring alerts under /api/admin/monitoring: compliance only (contract/admin-route-roles.ts). */
export async function monitoringAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/monitoring/alerts",
    { schema: { querystring: alertsQuery, response: { 200: monitoringAlertPage } } },
    (request) => findAlerts(db, request.query),
  );
  app.get(
    "/monitoring/alerts/:id",
    { schema: { params: alertIdParams, response: { 200: monitoringAlert } } },
    (request) => getAlert(db, request.params.id),
  );
}
