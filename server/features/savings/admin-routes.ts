import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  proposeSavingsRateInput,
  proposeSavingsRateResponse,
  savingsFinance,
  savingsRateHistory,
} from "@/contract/savings-admin";
import { getSavingsFinance } from "@/server/features/savings/savings-finance";
import { findSavingsRates, proposeSavingsRate } from "@/server/features/savings/savings-rates";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/** /api/admin/savings: finance's figures and the rate's maker-checker (issue 51 §2 and §4, decision 071). */
export async function adminSavingsRoutes(
  fastify: FastifyInstance,
  options: { requireFreshStepUp: (request: FastifyRequest) => Promise<void> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireAdmin);

  app.get("/savings/finance", { schema: { response: { 200: savingsFinance } } }, () => getSavingsFinance(db));
  app.get("/savings/rates", { schema: { response: { 200: savingsRateHistory } } }, () =>
    findSavingsRates(db),
  );
  // A new APY from a future day: owners propose, a second finance member or owner approves on the approvals
  // routes (step-up both times, as every maker-checker change).
  app.post(
    "/savings/rates",
    {
      schema: { body: proposeSavingsRateInput, response: { 202: proposeSavingsRateResponse } },
      preHandler: options.requireFreshStepUp,
    },
    async (request, reply) => {
      const answer = await proposeSavingsRate(db, signedInUser(request), request.body);
      return reply.code(answer.status).send(answer.body);
    },
  );
}
