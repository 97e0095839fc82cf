import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { idParams } from "@/contract/admin-onboarding";
import { pendingApprovalResponse } from "@/contract/approvals";
import { SETTLEMENT_ADMIN_MESSAGES } from "@/contract/settlement";
import {
  depositReturnInput,
  type TreasuryOverview,
  treasuryOverview as treasuryOverviewSchema,
} from "@/contract/treasury";
import { chainClient } from "@/server/features/settlement/chain-config";
import { proposeDepositReturn } from "@/server/features/settlement/deposit-returns";
import { treasuryOverview } from "@/server/features/settlement/treasury-overview";
import { AppError } from "@/server/lib/errors";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/** /api/admin/settlement/treasury: sweeps, the hot wallet's ceiling and forecast (decision 060; finance, owners). */
export async function adminTreasuryRoutes(
  fastify: FastifyInstance,
  options: { requireFreshStepUp: (request: FastifyRequest) => Promise<void> },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const chain = app.deps.config.chain;
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/settlement/treasury",
    { schema: { response: { 200: treasuryOverviewSchema } } },
    async (): Promise<TreasuryOverview> => {
      if (!chain) return { mode: "manual", message: SETTLEMENT_ADMIN_MESSAGES.manual };
      return treasuryOverview(db, chain, chainClient(chain));
    },
  );

  // A return of an uncreditable deposit to its sender: proposed here, approved by a second finance member on the
  // approvals routes (maker-checker, step-up both times); only then is the on-chain return queued.
  app.post(
    "/settlement/deposits/:id/return",
    {
      schema: { params: idParams, body: depositReturnInput, response: { 202: pendingApprovalResponse } },
      preHandler: options.requireFreshStepUp,
    },
    async (request, reply) => {
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
  );
}
