import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  caseIdParams,
  casesQuery,
  complianceCaseDetail,
  complianceCasePage,
  decideCaseInput,
  MAX_LIST_UPLOAD_BYTES,
  sanctionsListVersions,
  uploadListInput,
  uploadListResponse,
} from "@/contract/compliance";
import { decideCase, findCases, getCase } from "@/server/features/compliance/cases";
import { findListVersions, loadSanctionsList } from "@/server/features/compliance/load-sanctions-list";
import { rescreenEveryone } from "@/server/features/compliance/rescreen";
import { adminRouteRole } from "@/server/lib/audit-read";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/** The compliance desk under /api/admin/compliance: sanctions lists and the cases their hits open. */
export async function complianceAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/compliance/cases",
    { schema: { querystring: casesQuery, response: { 200: complianceCasePage } } },
    (request) => findCases(db, request.query),
  );
  app.get(
    "/compliance/cases/:id",
    { schema: { params: caseIdParams, response: { 200: complianceCaseDetail } } },
    (request) => getCase(db, request.params.id),
  );
  app.post(
    "/compliance/cases/:id/decision",
    { schema: { params: caseIdParams, body: decideCaseInput, response: { 200: complianceCaseDetail } } },
    (request) =>
      decideCase(
        db,
        { id: signedInUser(request).id, role: adminRouteRole(request) },
        request.params.id,
        request.body,
      ),
  );

  app.get("/compliance/lists", { schema: { response: { 200: sanctionsListVersions } } }, async () => ({
    items: await findListVersions(db),
  }));
  // Base64 in JSON grows the files by a third: the body limit allows the files' own limit plus that.
  app.post(
    "/compliance/lists",
    {
      bodyLimit: Math.ceil((MAX_LIST_UPLOAD_BYTES * 4) / 3) + 64 * 1024,
      schema: { body: uploadListInput, response: { 200: uploadListResponse } },
    },
    async (request) => {
      const user = signedInUser(request);
      const list = await loadSanctionsList(
        db,
        request.body.files.map((f) => ({ name: f.name, bytes: Buffer.from(f.contentBase64, "base64") })),
        { actorId: user.id, actorRole: adminRouteRole(request), source: "upload" },
      );
      const rescreen = await rescreenEveryone(db, app.deps.config.sanctionsNameThreshold);
      return { message: `List version ${list.version} is active`, list, rescreen };
    },
  );
}
