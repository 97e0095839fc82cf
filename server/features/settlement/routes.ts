import { desc, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { formatMoney } from "@/contract/money";
import { type DepositInfo, SETTLEMENT_ENDPOINTS, SETTLEMENT_MESSAGES } from "@/contract/settlement";
import { chainDeposits } from "@/server/db/schema";
import { chainName } from "@/server/features/settlement/chain-config";
import { ensureDepositAddress } from "@/server/features/settlement/deposit-addresses";
import { registerEndpoints } from "@/server/lib/endpoints";
import { AppError } from "@/server/lib/errors";
import { signedInUser } from "@/server/lib/session-plugin";

/** Deposits are money in for a customer's own account; staff never bank (after the signed-in check). */
async function refuseStaff(request: FastifyRequest): Promise<void> {
  if (request.user?.isAdmin) {
    throw new AppError("customers_only", SETTLEMENT_MESSAGES.staffCannotDeposit);
  }
}

const RECENT_DEPOSITS = 20;

/** /api/deposits: the signed-in customer's own deposit address (no id in the request: nobody else's). */
export async function settlementRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const chain = app.deps.config.chain;

  async function deposits(request: FastifyRequest): Promise<DepositInfo> {
    if (!chain) return { mode: "manual", message: SETTLEMENT_MESSAGES.manualOnly } satisfies DepositInfo;
    const userId = signedInUser(request).id;
    const address = await ensureDepositAddress(db, chain.depositXpub, userId, chain.treasury.depositFactory);
    const rows = await db
      .select()
      .from(chainDeposits)
      .where(eq(chainDeposits.userId, userId))
      .orderBy(desc(chainDeposits.seenAt), desc(chainDeposits.id))
      .limit(RECENT_DEPOSITS);
    const name = chainName(chain.chainId);
    return {
      mode: "chain",
      address,
      chainId: chain.chainId,
      chainName: name,
      token: "USDC",
      confirmations: chain.confirmations,
      warning: SETTLEMENT_MESSAGES.onlyUsdc(name),
      explorerUrl: chain.explorerUrl ? `${chain.explorerUrl}/address/${address}` : null,
      deposits: rows
        .filter((r) => r.chainId === chain.chainId)
        .map((r) => ({
          id: r.id,
          txHash: r.txHash,
          amount: formatMoney(r.amountCents),
          amountCents: r.amountCents,
          // Held for compliance: the customer reads "under review", never why (decision 039).
          status: r.status === "held" ? "under_review" : r.status,
          seenAt: r.seenAt.toISOString(),
          explorerUrl: chain.explorerUrl ? `${chain.explorerUrl}/tx/${r.txHash}` : null,
        })),
    } satisfies DepositInfo;
  }

  registerEndpoints(app, SETTLEMENT_ENDPOINTS, {
    "GET /api/deposits": { preHandler: [refuseStaff], handler: deposits },
  });
}
