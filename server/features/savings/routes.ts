import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  closeSavingsResponse,
  createSavingsGoalInput,
  moveSavingsInput,
  moveSavingsResponse,
  savingsOverview,
} from "@/contract/savings";
import { closeSavings } from "@/server/features/savings/close-savings";
import { moveSavings } from "@/server/features/savings/move-savings";
import { createGoal, getSavingsOverview, openSavings } from "@/server/features/savings/savings";
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

/** Moves per customer per minute, before RATE_LIMIT_SCALE: a script cannot churn the ledger. */
const MOVES_PER_MINUTE = 30;
/** Opening and closing savings and making goals, per customer per minute, before RATE_LIMIT_SCALE. */
const CHANGES_PER_MINUTE = 10;

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  return Array.isArray(key) ? key[0] : key;
}

/** /api/savings: the customer's savings account (issue 51, decision 068). */
export async function savingsRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireUser);
  const perCustomer = (name: string, max: number) =>
    keyedLimit(app, { name, max, key: (request) => request.user?.id ?? null });
  const changeLimit = perCustomer("savings-change", CHANGES_PER_MINUTE);

  app.get("/", { schema: { response: { 200: savingsOverview } } }, (request) =>
    getSavingsOverview(db, signedInUser(request).id),
  );
  app.post(
    "/",
    { schema: { response: { 201: savingsOverview } }, preHandler: [changeLimit] },
    async (request, reply) => reply.status(201).send(await openSavings(db, signedInUser(request).id)),
  );
  app.post(
    "/moves",
    {
      schema: { body: moveSavingsInput, response: { 201: moveSavingsResponse } },
      preHandler: [perCustomer("savings-move", MOVES_PER_MINUTE)],
      // move_savings's event tells every instance's poll memory (no broadcast of its own).
      config: { pollsToldByEvent: true },
    },
    async (request, reply) => {
      const result = await moveSavings(db, signedInUser(request).id, request.body, idempotencyKeyOf(request));
      if (result.replayed) reply.header("idempotent-replayed", "true");
      return reply.status(result.statusCode as 201).send(result.body);
    },
  );
  app.delete(
    "/",
    {
      schema: { response: { 200: closeSavingsResponse } },
      preHandler: [changeLimit],
      // close_savings's event tells every instance's poll memory (no broadcast of its own).
      config: { pollsToldByEvent: true },
    },
    async (request, reply) => {
      const result = await closeSavings(db, signedInUser(request).id, idempotencyKeyOf(request));
      if (result.replayed) reply.header("idempotent-replayed", "true");
      return reply.status(result.statusCode as 200).send(result.body);
    },
  );
  app.post(
    "/goals",
    {
      schema: { body: createSavingsGoalInput, response: { 201: savingsOverview } },
      preHandler: [changeLimit],
    },
    async (request, reply) =>
      reply.status(201).send(await createGoal(db, signedInUser(request).id, request.body)),
  );
}
