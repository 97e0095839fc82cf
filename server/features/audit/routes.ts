import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  auditExportQuery,
  auditPage,
  auditSearchQuery,
  dataAccessPage,
  dataAccessQuery,
} from "@/contract/audit";
import { csvDownload } from "@/contract/media";
import { startAuditCsv } from "@/server/features/audit/export-audit-csv";
import { findAuditEntries } from "@/server/features/audit/find-audit-entries";
import { findDataAccess } from "@/server/features/audit/find-data-access";
import { requireAdmin, requireUser, signedInUser } from "@/server/lib/session-plugin";

/** /api/admin/audit*: search the audit log and export the same search as CSV (owner and compliance). */
export async function adminAuditRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireAdmin);

  app.get("/audit", { schema: { querystring: auditSearchQuery, response: { 200: auditPage } } }, (request) =>
    findAuditEntries(db, request.query),
  );

  // Streamed in keyset batches with backpressure, like the customer's transaction export.
  app.get(
    "/audit.csv",
    { schema: { querystring: auditExportQuery, response: { 200: csvDownload } } },
    async (request, reply) => {
      const chunks = await startAuditCsv(db, request.query);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="pillar-audit.csv"')
        .send(Readable.from(chunks, { objectMode: false }));
    },
  );
}

/** GET /api/account/data-access: the signed-in customer's own access log. */
export async function dataAccessRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireUser);

  app.get(
    "/data-access",
    { schema: { querystring: dataAccessQuery, response: { 200: dataAccessPage } } },
    (request) => findDataAccess(db, signedInUser(request).id, request.query),
  );
}
