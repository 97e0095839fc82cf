import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { SETTLEMENT_ADMIN_MESSAGES } from "@/contract/settlement";
import { type TreasuryOverview, treasuryOverview as treasuryOverviewSchema } from "@/contract/treasury";
import { chainClient } from "@/server/features/settlement/chain-config";
import { treasuryOverview } from "@/server/features/settlement/treasury-overview";
import { requireAdmin } from "@/server/lib/session-plugin";

/** /api/admin/settlement/treasury: sweeps, the hot wallet's ceiling and forecast (decision 060; finance, owners). */
export async function adminTreasuryRoutes(fastify: FastifyInstance) {
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
}
