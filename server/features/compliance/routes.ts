import type { FastifyInstance, FastifyRequest } from "fastify";
import { COMPLIANCE_ENDPOINTS, MAX_LIST_UPLOAD_BYTES, REPORT_MESSAGES } from "@/contract/compliance";
import {
  assignCase,
  attachCaseDocument,
  type CaseActor,
  checkDecision as checkCaseDecision,
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
import { type EndpointHandler, registerEndpoints } from "@/server/lib/endpoints";
import { AppError } from "@/server/lib/errors";
import { signedInUser } from "@/server/lib/session-plugin";

/** pdfkit (~25 MiB resident) loads with the first report, not at start, as statements do. */
const sarRenderer = () => import("@/server/features/compliance/render-sar");

const actorOf = (request: FastifyRequest): CaseActor => ({
  id: signedInUser(request).id,
  role: adminRouteRole(request),
});

type CheckDecision =
  (typeof COMPLIANCE_ENDPOINTS)["POST /api/admin/compliance/cases/:id/decisions/:decisionId/approve"];

/** The compliance desk under /api/admin/compliance: sanctions lists and the cases their hits open. */
export async function complianceAdminRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const { config } = app.deps;
  // Approving and rejecting a proposed decision share their contract and differ only in the verdict.
  const checkDecision =
    (verdict: "approve" | "reject"): EndpointHandler<CheckDecision> =>
    (request) =>
      checkCaseDecision(
        db,
        actorOf(request),
        request.params.id,
        request.params.decisionId,
        verdict,
        request.body?.note,
      );
  registerEndpoints(app, COMPLIANCE_ENDPOINTS, {
    "GET /api/admin/compliance/cases": (request) => findCases(db, request.query),
    "GET /api/admin/compliance/cases/:id": (request) => getCase(db, request.params.id),
    "GET /api/admin/compliance/members": () => findComplianceMembers(db),
    "PUT /api/admin/compliance/cases/:id/assignee": (request) =>
      assignCase(db, actorOf(request), request.params.id, request.body.assigneeId),
    "POST /api/admin/compliance/cases/:id/comments": (request) =>
      commentOnCase(db, actorOf(request), request.params.id, request.body.body),
    "PUT /api/admin/compliance/cases/:id/narrative": (request) =>
      saveNarrative(db, actorOf(request), request.params.id, request.body.narrative),
    "POST /api/admin/compliance/cases/:id/documents": (request) =>
      attachCaseDocument(app.deps, actorOf(request), request.params.id, request.body),
    "POST /api/admin/compliance/cases/:id/links": (request) =>
      linkCustomer(db, actorOf(request), request.params.id, request.body),
    "POST /api/admin/compliance/cases/:id/decisions": (request) =>
      proposeDecision(db, actorOf(request), request.params.id, request.body),
    "POST /api/admin/compliance/cases/:id/decisions/:decisionId/approve": checkDecision("approve"),
    "POST /api/admin/compliance/cases/:id/decisions/:decisionId/reject": checkDecision("reject"),
    "GET /api/admin/compliance/cases/:id/report.json": (request) =>
      buildSarDraft(db, config.filingInstitution, actorOf(request), request.params.id, "json"),
    "GET /api/admin/compliance/cases/:id/report.pdf": async (request, reply) => {
      // Everything that can fail with a clean 4xx/5xx happens before the first byte of the PDF is sent.
      const draft = await buildSarDraft(
        db,
        config.filingInstitution,
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
    "GET /api/admin/compliance/lists": async () => {
      const [items, rescreens] = await Promise.all([findListVersions(db), findRescreenRuns(db)]);
      return { items, rescreens };
    },
    // Base64 in JSON grows the files by a third: the body limit allows the files' own limit plus that.
    "POST /api/admin/compliance/lists": {
      bodyLimit: Math.ceil((MAX_LIST_UPLOAD_BYTES * 4) / 3) + 64 * 1024,
      handler: async (request) => {
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
    },
    "POST /api/admin/compliance/search": (request) =>
      searchActiveList(db, actorOf(request), request.body, config.sanctionsNameThreshold),
    "GET /api/admin/compliance/cases/:id/sar": (request) => getSarDetails(db, request.params.id),
    "PUT /api/admin/compliance/cases/:id/sar": (request) =>
      saveSarDetails(db, config.dataKey, actorOf(request), request.params.id, request.body),
    "GET /api/admin/compliance/cases/:id/report.xml": async (request, reply) => {
      const sar = await buildSarExport(
        db,
        config.dataKey,
        config.filingInstitution,
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
    "GET /api/admin/compliance/ofac-reports": (request) => findOfacReports(db, request.query.status),
    "POST /api/admin/compliance/ofac-reports/:id/filed": (request) =>
      markOfacReportFiled(db, actorOf(request), request.params.id, request.body),
    "GET /api/admin/compliance/ofac-reports/annual.csv": async (request, reply) => {
      const { csv } = await annualBlockedReportCsv(db, actorOf(request), request.query.year);
      return reply
        .type("text/csv; charset=utf-8")
        .header(
          "content-disposition",
          `attachment; filename="pillar-blocked-property-${request.query.year}-06-30.csv"`,
        )
        .send(csv);
    },
  });
}
