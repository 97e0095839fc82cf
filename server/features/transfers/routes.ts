import type { FastifyInstance, FastifyRequest } from "fastify";
import { SELF_LIMITS_ENDPOINTS } from "@/contract/self-limits";
import { TRANSFER_ENDPOINTS } from "@/contract/transfers";
import { deviceCookieName } from "@/server/features/security/known-devices";
import { createTransfer } from "@/server/features/transfers/create-transfer";
import { idempotencyKeyOf, transferCreationLimits } from "@/server/features/transfers/creation-limits";
import { getTransferLimits } from "@/server/features/transfers/get-transfer-limits";
import { getSelfLimits, setPersonalDailyLimit, setSendBlock } from "@/server/features/transfers/self-limits";
import { startTransferPasskey } from "@/server/features/transfers/start-transfer-passkey";
import { registerEndpoints } from "@/server/lib/endpoints";
import { sendKeyed } from "@/server/lib/idempotency";
import { keyedLimit } from "@/server/lib/rate-limit";
import { signedInUser } from "@/server/lib/session-plugin";

/** /api/transfer/*: a customer's outgoing USDC transfers. */
export async function transferRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  // Shared with the tag-payments area: one count per customer across transfers and payments by $tag.
  const { proofLimit, creationLimit } = transferCreationLimits(app);
  const deviceTokenOf = (request: FastifyRequest) => ({
    deviceToken: request.cookies[deviceCookieName(deps.config)],
  });

  registerEndpoints(app, TRANSFER_ENDPOINTS, {
    "POST /api/transfer/request": {
      preHandler: [proofLimit, creationLimit],
      // create_transfer_request checks the session under its call (no lookup of its own on a cache miss), and its
      // event's notice tells every instance's poll memory (no broadcast of its own): one round trip.
      config: { sessionCheckedInSql: true, pollsToldByEvent: true },
      handler: async (request, reply) => {
        const result = await createTransfer(
          deps,
          { ...signedInUser(request), session: request.session },
          request.body,
          idempotencyKeyOf(request),
          new Date(),
          deviceTokenOf(request),
        );
        return sendKeyed(reply, result);
      },
    },
    "POST /api/transfer/passkey-options": (request) =>
      startTransferPasskey(deps, signedInUser(request), request.body),
    "GET /api/transfer/limits": (request) => getTransferLimits(db, signedInUser(request).id),
  });

  // The customer's own limits (decision 035). The password that confirms a change for a customer with no second
  // factor (decision 047): few guesses, counted per customer whichever session sends them, apart from the
  // changes' own limit.
  const passwordTries = keyedLimit(app, {
    name: "self-limits-password",
    max: 5,
    timeWindow: "15 minutes",
    key: (request) =>
      (request.body as { password?: unknown } | undefined)?.password === undefined
        ? null
        : (request.user?.id ?? null),
  });
  registerEndpoints(app, SELF_LIMITS_ENDPOINTS, {
    "GET /api/transfer/self-limits": (request) => getSelfLimits(db, signedInUser(request).id),
    "PUT /api/transfer/self-limits/daily-limit": {
      preHandler: [passwordTries],
      handler: (request) =>
        setPersonalDailyLimit(deps, { ...signedInUser(request), session: request.session }, request.body),
    },
    "PUT /api/transfer/self-limits/send-block": {
      preHandler: [passwordTries],
      handler: (request) =>
        setSendBlock(deps, { ...signedInUser(request), session: request.session }, request.body),
    },
  });
}
