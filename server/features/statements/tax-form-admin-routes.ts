import type { FastifyInstance } from "fastify";
import { TAX_FORM_ADMIN_ENDPOINTS } from "@/contract/tax-forms";
import { buildPub1220File } from "@/server/features/statements/pub-1220";
import { monthOf } from "@/server/features/statements/statement-month";
import {
  getTaxFormRunStatus,
  startTaxFormRun,
  wakeTaxFormRun,
} from "@/server/features/statements/tax-form-run";
import { writeAudit } from "@/server/lib/audit";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/**
 * /api/admin/tax-forms (decision 070; finance and owners): the yearly Form 1099-INT run's status, its start (the
 * jobs room works it, a batch a pass), and the Publication 1220 file for the IRS.
 */
export async function taxFormAdminRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const { taxPayer, dataKey } = app.deps.config;

  registerEndpoints(app, TAX_FORM_ADMIN_ENDPOINTS, {
    "GET /api/admin/tax-forms/runs": (request) =>
      getTaxFormRunStatus(db, request.query.year ?? Number(monthOf(new Date()).slice(0, 4)) - 1),

    // Refused with a 409 while the year is open or its interest not all credited; a run already working is answered.
    "POST /api/admin/tax-forms/runs": async (request) => {
      await startTaxFormRun(db, request.body.year, { startedBy: signedInUser(request).id });
      wakeTaxFormRun();
      return getTaxFormRunStatus(db, request.body.year);
    },

    // Every payee's full TIN is in this file: the export is audited (who, which year, which file) before it answers.
    "GET /api/admin/tax-forms/pub1220": async (request, reply) => {
      const { year, file, test } = request.query;
      const built = await buildPub1220File(db, dataKey, taxPayer, { year, file, test: test === "1" });
      await writeAudit(db, {
        actorId: signedInUser(request).id,
        action: "tax_forms.pub1220_exported",
        targetType: "tax_year",
        targetId: String(year),
        after: { file, test: test === "1", payees: built.payees, totalCents: built.totalCents },
      });
      return reply
        .type("text/plain; charset=us-ascii")
        .header("content-disposition", `attachment; filename="pillar-1099-int-${year}-${file}.txt"`)
        .header("cache-control", "no-store")
        .send(built.text);
    },
  });
}
