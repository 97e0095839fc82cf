import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { passkeyOptionsResponse, transferPasskeyOptionsInput } from "@/contract/security";
import { createTransferInput, createTransferResponse, transferLimits } from "@/contract/transfers";
import { deviceCookieName } from "@/server/features/security/known-devices";
import { createTransfer, isAnsweredTransferKey } from "@/server/features/transfers/create-transfer";
import { getTransferLimits } from "@/server/features/transfers/get-transfer-limits";
import { startTransferPasskey } from "@/server/features/transfers/start-transfer-passkey";
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

/** Per customer per minute, before RATE_LIMIT_SCALE; the daily count cap (TRANSFER_DAILY_COUNT_LIMIT) is separate. */
const TRANSFERS_PER_MINUTE = 20;

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  return Array.isArray(key) ? key[0] : key;
}

/** /api/transfer/*: a customer's outgoing USDC transfers. */
export async function transferRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  app.addHook("onRequest", requireUser);
  // Only requests carrying a proof are counted, so guessing codes is slow and plain transfers pay nothing.
  const proofLimit = keyedLimit(app, {
    name: "transfer-proof",
    max: 10,
    key: (request) =>
      (request.body as { secondFactor?: unknown } | undefined)?.secondFactor
        ? (request.user?.id ?? null)
        : null,
  });

  // Every customer's creations are counted (shared through Redis when configured): a script making hundreds of
  // requests a second would otherwise flood the admin desk. A replay of an answered key is never refused.
  const creationLimit = keyedLimit(app, {
    name: "transfer-create",
    max: TRANSFERS_PER_MINUTE,
    key: (request) => request.user?.id ?? null,
    exempt: (request) => isAnsweredTransferKey(db, signedInUser(request).id, idempotencyKeyOf(request)),
  });

  app.post(
    "/request",
    {
      schema: { body: createTransferInput, response: { 201: createTransferResponse } },
      preHandler: [proofLimit, creationLimit],
    },
    async (request, reply) => {
      const result = await createTransfer(
        deps,
        signedInUser(request),
        request.body,
        idempotencyKeyOf(request),
        new Date(),
        { deviceToken: request.cookies[deviceCookieName(deps.config)] },
      );
      if (result.replayed) reply.header("idempotent-replayed", "true");
      return reply.status(result.statusCode as 201).send(result.body);
    },
  );

  app.post(
    "/passkey-options",
    {
      schema: { body: transferPasskeyOptionsInput, response: { 200: passkeyOptionsResponse } },
      preHandler: keyedLimit(app, {
        name: "transfer-passkey",
        max: 10,
        key: (request) => request.user?.id ?? null,
      }),
    },
    (request) => startTransferPasskey(deps, signedInUser(request), request.body),
  );

  app.get("/limits", { schema: { response: { 200: transferLimits } } }, (request) =>
    getTransferLimits(db, signedInUser(request).id),
  );
}
