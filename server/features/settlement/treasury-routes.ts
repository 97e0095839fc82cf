import type { FastifyInstance } from "fastify";
import { SETTLEMENT_ADMIN_MESSAGES } from "@/contract/settlement";
import { TREASURY_ENDPOINTS, type TreasuryOverview } from "@/contract/treasury";
import { chainClient } from "@/server/features/settlement/chain-config";
import { proposeDepositReturn } from "@/server/features/settlement/deposit-returns";
import { treasuryOverview } from "@/server/features/settlement/treasury-overview";
import { registerEndpoints } from "@/server/lib/endpoints";
import { AppError } from "@/server/lib/errors";
import { signedInUser } from "@/server/lib/session-plugin";

/** /api/admin/settlement/treasury: sweeps, the hot wallet's ceiling and forecast (decision 060; finance, owners). */
export async function adminTreasuryRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const chain = app.deps.config.chain;

  registerEndpoints(app, TREASURY_ENDPOINTS, {
    "GET /api/admin/settlement/treasury": async (): Promise<TreasuryOverview> => {
      if (!chain) return { mode: "manual", message: SETTLEMENT_ADMIN_MESSAGES.manual };
      return treasuryOverview(db, chain, chainClient(chain));
    },
    // A return of an uncreditable deposit to its sender: proposed here, approved by a second finance member on
    // the approvals routes (maker-checker); only then is the on-chain return queued.
    "POST /api/admin/settlement/deposits/:id/return": async (request, reply) => {
      if (!chain)
        throw new AppError("NOT_FOUND", "No such deposit: settlement is manual, nothing is on chain");
      const answer = await proposeDepositReturn(
        db,
        chain,
        signedInUser(request),
        request.params.id,
        request.body,
      );
      return reply.code(answer.status).send(answer.body);
    },
  });
}
