import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { pub1220Download } from "@/contract/media";
import { pub1220Query, taxFormRunQuery, taxFormRunStatus, taxYearInput } from "@/contract/tax-forms";
import { buildPub1220File } from "@/server/features/statements/pub-1220";
import { monthOf } from "@/server/features/statements/statement-month";
import {
  getTaxFormRunStatus,
  startTaxFormRun,
  wakeTaxFormRun,
} from "@/server/features/statements/tax-form-run";
import { writeAudit } from "@/server/lib/audit";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/**
 * /api/admin/tax-forms (decision 070; finance and owners): the yearly Form 1099-INT run's status, its start (the
 * jobs room works it, a batch a pass), and the Publication 1220 file for the IRS.
 */
export async function taxFormAdminRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const { taxPayer, dataKey } = app.deps.config;
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/tax-forms/runs",
    { schema: { querystring: taxFormRunQuery, response: { 200: taxFormRunStatus } } },
    async (request) =>
      getTaxFormRunStatus(db, request.query.year ?? Number(monthOf(new Date()).slice(0, 4)) - 1),
  );

  // Refused with a 409 while the year is open or its interest not all credited; a run already working is answered.
  app.post(
    "/tax-forms/runs",
    { schema: { body: taxYearInput, response: { 202: taxFormRunStatus } } },
    async (request, reply) => {
      await startTaxFormRun(db, request.body.year, { startedBy: signedInUser(request).id });
      wakeTaxFormRun();
      return reply.code(202).send(await getTaxFormRunStatus(db, request.body.year));
    },
  );

  // Every payee's full TIN is in this file: the export is audited (who, which year, which file) before it answers.
  app.get(
    "/tax-forms/pub1220",
    { schema: { querystring: pub1220Query, response: { 200: pub1220Download } } },
    async (request, reply) => {
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
  );
}
