import type { FastifyInstance } from "fastify";
import { SAVINGS_ADMIN_ENDPOINTS } from "@/contract/savings-admin";
import { getSavingsFinance } from "@/server/features/savings/savings-finance";
import { findSavingsRates, proposeSavingsRate } from "@/server/features/savings/savings-rates";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/** /api/admin/savings: finance's figures and the rate's maker-checker (decision 071). */
export async function adminSavingsRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  registerEndpoints(app, SAVINGS_ADMIN_ENDPOINTS, {
    "GET /api/admin/savings/finance": () => getSavingsFinance(db),
    "GET /api/admin/savings/rates": () => findSavingsRates(db),
    // A new APY from a future day: a second finance member or owner approves on the approvals routes.
    "POST /api/admin/savings/rates": async (request, reply) => {
      const answer = await proposeSavingsRate(db, signedInUser(request), request.body);
      return reply.code(answer.status).send(answer.body);
    },
  });
}
