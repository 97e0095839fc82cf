import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { AUDIT_ENDPOINTS, DATA_ACCESS_ENDPOINTS } from "@/contract/audit";
import { startAuditCsv } from "@/server/features/audit/export-audit-csv";
import { findAuditEntries } from "@/server/features/audit/find-audit-entries";
import { findDataAccess } from "@/server/features/audit/find-data-access";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/** /api/admin/audit*: search the audit log and export the same search as CSV (owner and compliance). */
export async function adminAuditRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  registerEndpoints(app, AUDIT_ENDPOINTS, {
    "GET /api/admin/audit": (request) => findAuditEntries(db, request.query),
    // Streamed in keyset batches with backpressure, like the customer's transaction export.
    "GET /api/admin/audit.csv": async (request, reply) => {
      const chunks = await startAuditCsv(db, request.query);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="pillar-audit.csv"')
        .send(Readable.from(chunks, { objectMode: false }));
    },
  });
}

/** GET /api/account/data-access: the signed-in customer's own access log. */
export async function dataAccessRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  registerEndpoints(app, DATA_ACCESS_ENDPOINTS, {
    "GET /api/account/data-access": (request) => findDataAccess(db, signedInUser(request).id, request.query),
  });
}
