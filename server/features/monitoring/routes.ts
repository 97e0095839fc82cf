import type { FastifyInstance } from "fastify";
import { MONITORING_ENDPOINTS } from "@/contract/monitoring";
import { findAlerts, getAlert } from "@/server/features/monitoring/find-alerts";
import { registerEndpoints } from "@/server/lib/endpoints";

/** Transaction-monitoring alerts under /api/admin/monitoring: compliance only (contract/monitoring.ts). */
export async function monitoringAdminRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  registerEndpoints(app, MONITORING_ENDPOINTS, {
    "GET /api/admin/monitoring/alerts": (request) => findAlerts(db, request.query),
    "GET /api/admin/monitoring/alerts/:id": (request) => getAlert(db, request.params.id),
  });
}
