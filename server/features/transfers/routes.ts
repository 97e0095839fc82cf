import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { createTransferInput, transferLimits, transferRequest } from "@/contract/transfers";
import { getTransferLimits } from "@/server/features/accounts/account-queries";
import { createTransfer } from "@/server/features/transfers/create-transfer";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

const createTransferResponse = z.object({ message: z.string(), transferRequest });

/** /api/transfer/*: a customer's outgoing USDC transfers. */
export async function transferRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  app.addHook("onRequest", requireUser);

  app.post(
    "/request",
    { schema: { body: createTransferInput, response: { 201: createTransferResponse } } },
    async (request, reply) => {
      const key = request.headers["idempotency-key"];
      const result = await createTransfer(
        db,
        signedInUser(request),
        app.deps.config,
        request.body,
        Array.isArray(key) ? key[0] : key,
      );
      if (result.replayed) reply.header("idempotent-replayed", "true");
      return reply.status(result.statusCode as 201).send(result.body);
    },
  );

  app.get("/limits", { schema: { response: { 200: transferLimits } } }, (request) =>
    getTransferLimits(db, signedInUser(request).id),
  );
}
