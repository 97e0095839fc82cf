import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  annualBlockedQuery,
  assignCaseInput,
  attachDocumentInput,
  caseActionResponse,
  caseDecisionParams,
  caseIdParams,
  casesQuery,
  checkDecisionInput,
  commentInput,
  complianceCaseDetail,
  complianceCasePage,
  complianceMembers,
  fileOfacReportInput,
  fileOfacReportResponse,
  linkCustomerInput,
  listSearchInput,
  listSearchResponse,
  MAX_LIST_UPLOAD_BYTES,
  narrativeInput,
  ofacReportParams,
  ofacReportsQuery,
  ofacReportsResponse,
  proposeDecisionInput,
  REPORT_MESSAGES,
  sanctionsListVersions,
  sarDetails,
  sarDetailsInput,
  sarDetailsResponse,
  sarReport,
  sarXmlDownload,
  uploadListInput,
  uploadListResponse,
} from "@/contract/compliance";
import { csvDownload, pdfDownload } from "@/contract/media";
import {
  assignCase,
  attachCaseDocument,
  type CaseActor,
  checkDecision,
  commentOnCase,
  findComplianceMembers,
  linkCustomer,
  proposeDecision,
  saveNarrative,
} from "@/server/features/compliance/case-work";
import { findCases, getCase } from "@/server/features/compliance/cases";
import { findListVersions, loadSanctionsList } from "@/server/features/compliance/load-sanctions-list";
import {
  annualBlockedReportCsv,
  findOfacReports,
  markOfacReportFiled,
} from "@/server/features/compliance/ofac-reports";
import { findRescreenRun, findRescreenRuns, wakeRescreen } from "@/server/features/compliance/rescreen";
import { getSarDetails, saveSarDetails } from "@/server/features/compliance/sar-details";
import { buildSarDraft, buildSarExport } from "@/server/features/compliance/sar-report";
import { buildSarBatch, checkSarBatch, writeSarBatch } from "@/server/features/compliance/sar-xml";
import { searchActiveList } from "@/server/features/compliance/staff-list-search";
import { adminRouteRole } from "@/server/lib/audit-read";
import { AppError } from "@/server/lib/errors";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/** pdfkit (~25 MiB resident) loads with the first report, not at start, as statements do. */
const sarRenderer = () => import("@/server/features/compliance/render-sar");

const actorOf = (request: FastifyRequest): CaseActor => ({
  id: signedInUser(request).id,
  role: adminRouteRole(request),
});

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
  app.get("/compliance/members", { schema: { response: { 200: complianceMembers } } }, () =>
    findComplianceMembers(db),
  );
  const caseAction = { params: caseIdParams, response: { 200: caseActionResponse } };
  app.put("/compliance/cases/:id/assignee", { schema: { ...caseAction, body: assignCaseInput } }, (request) =>
    assignCase(db, actorOf(request), request.params.id, request.body.assigneeId),
  );
  app.post("/compliance/cases/:id/comments", { schema: { ...caseAction, body: commentInput } }, (request) =>
    commentOnCase(db, actorOf(request), request.params.id, request.body.body),
  );
  app.put("/compliance/cases/:id/narrative", { schema: { ...caseAction, body: narrativeInput } }, (request) =>
    saveNarrative(db, actorOf(request), request.params.id, request.body.narrative),
  );
  app.post(
    "/compliance/cases/:id/documents",
    { schema: { ...caseAction, body: attachDocumentInput } },
    (request) => attachCaseDocument(app.deps, actorOf(request), request.params.id, request.body),
  );
  app.post("/compliance/cases/:id/links", { schema: { ...caseAction, body: linkCustomerInput } }, (request) =>
    linkCustomer(db, actorOf(request), request.params.id, request.body),
  );
  app.post(
    "/compliance/cases/:id/decisions",
    { schema: { ...caseAction, body: proposeDecisionInput } },
    (request) => proposeDecision(db, actorOf(request), request.params.id, request.body),
  );
  for (const verdict of ["approve", "reject"] as const) {
    app.post(
      `/compliance/cases/:id/decisions/:decisionId/${verdict}`,
      {
        schema: {
          params: caseDecisionParams,
          body: checkDecisionInput,
          response: { 200: caseActionResponse },
        },
      },
      (request) =>
        checkDecision(
          db,
          actorOf(request),
          request.params.id,
          request.params.decisionId,
          verdict,
          request.body?.note,
        ),
    );
  }
  app.get(
    "/compliance/cases/:id/report.json",
    { schema: { params: caseIdParams, response: { 200: sarReport } } },
    (request) =>
      buildSarDraft(db, app.deps.config.filingInstitution, actorOf(request), request.params.id, "json"),
  );
  app.get(
    "/compliance/cases/:id/report.pdf",
    { schema: { params: caseIdParams, response: { 200: pdfDownload } } },
    async (request, reply) => {
      // Everything that can fail with a clean 4xx/5xx happens before the first byte of the PDF is sent.
      const draft = await buildSarDraft(
        db,
        app.deps.config.filingInstitution,
        actorOf(request),
        request.params.id,
        "pdf",
      );
      const { renderSarDraft } = await sarRenderer();
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="pillar-case-${draft.caseId}.pdf"`)
        .send(renderSarDraft(draft));
    },
  );

  app.get("/compliance/lists", { schema: { response: { 200: sanctionsListVersions } } }, async () => {
    const [items, rescreens] = await Promise.all([findListVersions(db), findRescreenRuns(db)]);
    return { items, rescreens };
  });
  // The staff list search (issue 47 §2): the active list, by the screening points' own matcher and threshold.
  app.post(
    "/compliance/search",
    { schema: { body: listSearchInput, response: { 200: listSearchResponse } } },
    (request) => searchActiveList(db, actorOf(request), request.body, app.deps.config.sanctionsNameThreshold),
  );
  // Reports a regulator asks for (issue 47 §5, decision 055): the SAR's FinCEN fields and its batch XML, and
  // the OFAC reports of blocked and rejected transactions with the annual blocked-property report.
  app.get(
    "/compliance/cases/:id/sar",
    { schema: { params: caseIdParams, response: { 200: sarDetails } } },
    (request) => getSarDetails(db, request.params.id),
  );
  app.put(
    "/compliance/cases/:id/sar",
    { schema: { params: caseIdParams, body: sarDetailsInput, response: { 200: sarDetailsResponse } } },
    (request) =>
      saveSarDetails(db, app.deps.config.dataKey, actorOf(request), request.params.id, request.body),
  );
  app.get(
    "/compliance/cases/:id/report.xml",
    { schema: { params: caseIdParams, response: { 200: sarXmlDownload } } },
    async (request, reply) => {
      const sar = await buildSarExport(
        db,
        app.deps.config.dataKey,
        app.deps.config.filingInstitution,
        actorOf(request),
        request.params.id,
      );
      const batch = buildSarBatch(sar);
      const problems = checkSarBatch(batch);
      if (problems.length > 0) {
        throw new AppError("CONFLICT", `${REPORT_MESSAGES.sarNotReady}: ${problems.join("; ")}`);
      }
      return reply
        .type("application/xml; charset=utf-8")
        .header("content-disposition", `attachment; filename="pillar-sar-${sar.report.caseId}.xml"`)
        .send(writeSarBatch(batch));
    },
  );
  app.get(
    "/compliance/ofac-reports",
    { schema: { querystring: ofacReportsQuery, response: { 200: ofacReportsResponse } } },
    (request) => findOfacReports(db, request.query.status),
  );
  app.post(
    "/compliance/ofac-reports/:id/filed",
    {
      schema: {
        params: ofacReportParams,
        body: fileOfacReportInput,
        response: { 200: fileOfacReportResponse },
      },
    },
    (request) => markOfacReportFiled(db, actorOf(request), request.params.id, request.body),
  );
  app.get(
    "/compliance/ofac-reports/annual.csv",
    { schema: { querystring: annualBlockedQuery, response: { 200: csvDownload } } },
    async (request, reply) => {
      const { csv } = await annualBlockedReportCsv(db, actorOf(request), request.query.year);
      return reply
        .type("text/csv; charset=utf-8")
        .header(
          "content-disposition",
          `attachment; filename="pillar-blocked-property-${request.query.year}-06-30.csv"`,
        )
        .send(csv);
    },
  );
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
      // The load queued the re-screen with the new version; the jobs room runs it (decision 053).
      wakeRescreen();
      const rescreen = await findRescreenRun(db, list.id);
      return { message: `List version ${list.version} is active`, list, rescreen: rescreen! };
    },
  );
}
