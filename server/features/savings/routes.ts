import type { FastifyInstance, FastifyRequest } from "fastify";
import { SAVINGS_ENDPOINTS } from "@/contract/savings";
import { closeSavings } from "@/server/features/savings/close-savings";
import { moveSavings } from "@/server/features/savings/move-savings";
import { createGoal, getSavingsOverview, openSavings } from "@/server/features/savings/savings";
import { registerEndpoints } from "@/server/lib/endpoints";
import { sendKeyed } from "@/server/lib/idempotency";
import { signedInUser } from "@/server/lib/session-plugin";

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  return Array.isArray(key) ? key[0] : key;
}

/** /api/savings: the customer's savings account (decision 068). */
export async function savingsRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  registerEndpoints(app, SAVINGS_ENDPOINTS, {
    "GET /api/savings": (request) => getSavingsOverview(db, signedInUser(request).id),
    "POST /api/savings": (request) => openSavings(db, signedInUser(request).id),
    "POST /api/savings/moves": {
      // move_savings's event tells every instance's poll memory (no broadcast of its own).
      config: { pollsToldByEvent: true },
      handler: async (request, reply) => {
        const result = await moveSavings(
          db,
          signedInUser(request).id,
          request.body,
          idempotencyKeyOf(request),
        );
        return sendKeyed(reply, result);
      },
    },
    "DELETE /api/savings": {
      // close_savings's event tells every instance's poll memory (no broadcast of its own).
      config: { pollsToldByEvent: true },
      handler: async (request, reply) => {
        const result = await closeSavings(db, signedInUser(request).id, idempotencyKeyOf(request));
        return sendKeyed(reply, result);
      },
    },
    "POST /api/savings/goals": (request) => createGoal(db, signedInUser(request).id, request.body),
  });
}
