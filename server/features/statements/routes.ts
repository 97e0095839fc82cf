import type { FastifyInstance } from "fastify";
import { STATEMENTS_ENDPOINTS } from "@/contract/statements";
import {
  findSavingsStatements,
  getSavingsStatementSummary,
  openSavingsStatement,
} from "@/server/features/statements/savings-statement-data";
import {
  findStatementMonths,
  getStatementSummary,
  openStatement,
} from "@/server/features/statements/statement-data";
import { findStoredSavingsStatement, findStoredStatement } from "@/server/features/statements/statement-run";
import { findOwnTaxForm, findTaxForms } from "@/server/features/statements/tax-forms";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/** The PDF renderer pulls in pdfkit (~25 MiB resident): loaded on the first PDF, not at start. */
const pdfRenderers = () => import("@/server/features/statements/render-statement");
const taxFormRenderer = () => import("@/server/features/statements/render-tax-form");
const savingsPdfRenderers = () => import("@/server/features/statements/render-savings-statement");

/** Statements: always the signed-in customer's own (no user id in any URL). */
export async function statementRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;

  registerEndpoints(app, STATEMENTS_ENDPOINTS, {
    "GET /api/statements": async (request) => ({
      months: await findStatementMonths(db, signedInUser(request).id),
      savings: await findSavingsStatements(db, signedInUser(request).id),
    }),

    "GET /api/statements/:month.pdf": async (request, reply) => {
      const { owner, period } = await openStatement(db, signedInUser(request).id, request.params.month);
      // Everything that can fail with a clean 4xx/5xx happens before the first byte of the PDF is sent.
      // A closed month's figures were stored by the month-end run (decision 062): the same numbers, read once.
      const summary =
        (await findStoredStatement(db, owner.userId, period.month)) ??
        (await getStatementSummary(db, owner, period));
      const { createStatementDocument, writeStatement } = await pdfRenderers();
      const doc = createStatementDocument(owner, period);
      writeStatement(doc, db, owner, period, summary).catch((err: Error) => {
        request.log.error({ err }, "statement stream failed");
        doc.destroy(err);
      });
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="pillar-statement-${period.month}.pdf"`)
        .send(doc);
    },

    // Form 1099-INT (decision 070): the customer's own forms only; another customer's id is a 404 like none.
    "GET /api/statements/tax-forms": async (request) => ({
      forms: await findTaxForms(db, signedInUser(request).id),
    }),

    "GET /api/statements/tax-forms/:id.pdf": async (request, reply) => {
      const form = await findOwnTaxForm(db, signedInUser(request).id, request.params.id);
      const { renderTaxForm } = await taxFormRenderer();
      const suffix = form.sequence > 1 ? "-corrected" : "";
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="pillar-1099-int-${form.tax_year}${suffix}.pdf"`)
        .send(renderTaxForm(form));
    },

    // A savings account's statement (decision 069): the account must be the caller's (another's answers as an
    // unknown one, 404), and the month's interest paid.
    "GET /api/statements/savings/:accountId/:month.pdf": async (request, reply) => {
      const { accountId, month } = request.params;
      const { owner, period } = await openSavingsStatement(db, signedInUser(request).id, accountId, month);
      const summary =
        (await findStoredSavingsStatement(db, owner.accountId, period.month)) ??
        (await getSavingsStatementSummary(db, owner, period));
      const { createSavingsStatementDocument, writeSavingsStatement } = await savingsPdfRenderers();
      const doc = createSavingsStatementDocument(owner, period);
      writeSavingsStatement(doc, db, owner, period, summary).catch((err: Error) => {
        request.log.error({ err }, "savings statement stream failed");
        doc.destroy(err);
      });
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="pillar-savings-statement-${period.month}.pdf"`)
        .send(doc);
    },
  });
}
