import type { FastifyInstance, FastifyRequest } from "fastify";
import { MONEY_REQUEST_ENDPOINTS } from "@/contract/money-requests";
import { SELF_LIMITS_ENDPOINTS } from "@/contract/self-limits";
import { TAG_PAYMENT_ENDPOINTS } from "@/contract/tag-payments";
import { TRANSFER_ENDPOINTS } from "@/contract/transfers";
import { deviceCookieName } from "@/server/features/security/known-devices";
import { createTransfer, isAnsweredTransferKey } from "@/server/features/transfers/create-transfer";
import { getTransferLimits } from "@/server/features/transfers/get-transfer-limits";
import {
  blockRequester,
  findRequestBlocks,
  unblockRequester,
} from "@/server/features/transfers/money-request-blocks";
import {
  cancelMoneyRequest,
  createMoneyRequest,
  declineMoneyRequest,
  findMoneyRequests,
  payMoneyRequest,
} from "@/server/features/transfers/money-requests";
import { lookUpTag, payByTag } from "@/server/features/transfers/pay-by-tag";
import { getSelfLimits, setPersonalDailyLimit, setSendBlock } from "@/server/features/transfers/self-limits";
import { startTransferPasskey } from "@/server/features/transfers/start-transfer-passkey";
import { registerEndpoints } from "@/server/lib/endpoints";
import { keyedLimit } from "@/server/lib/rate-limit";
import { signedInUser } from "@/server/lib/session-plugin";

/** Per customer per minute, before RATE_LIMIT_SCALE; the daily count cap (TRANSFER_DAILY_COUNT_LIMIT) is separate. */
const TRANSFERS_PER_MINUTE = 20;
/** Money requests a customer may send per day, before RATE_LIMIT_SCALE (spam; decision 037); per minute: contract. */
const MONEY_REQUESTS_PER_DAY = 50;

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  return Array.isArray(key) ? key[0] : key;
}

/** /api/transfer/*: a customer's outgoing USDC transfers. */
export async function transferRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
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
        if (result.replayed) reply.header("idempotent-replayed", "true");
        return reply.status(result.statusCode).send(result.body);
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

  // Paying another customer by $tag (decision 035).
  registerEndpoints(app, TAG_PAYMENT_ENDPOINTS, {
    "GET /api/transfer/tag/:tag": (request) => lookUpTag(db, signedInUser(request), request.params.tag),
    "POST /api/transfer/tag-payments": {
      preHandler: [proofLimit, creationLimit],
      // pay_by_tag checks the session under its call and its event's notices reach both parties' polls everywhere.
      config: { sessionCheckedInSql: true, pollsToldByEvent: true },
      handler: async (request, reply) => {
        const result = await payByTag(
          deps,
          { id: signedInUser(request).id, session: request.session },
          request.body,
          idempotencyKeyOf(request),
          new Date(),
          deviceTokenOf(request),
        );
        if (result.replayed) reply.header("idempotent-replayed", "true");
        return reply.status(result.statusCode).send(result.body);
      },
    },
  });

  // "Request money" from a $tag (decision 037): counted per customer, per minute (the contract's limit) and per
  // day, so nobody can be flooded with requests; every tag that cannot be asked answers like the lookup.
  const moneyRequestsPerDay = keyedLimit(app, {
    name: "money-request-day",
    max: MONEY_REQUESTS_PER_DAY,
    timeWindow: "1 day",
    key: (request) => request.user?.id ?? null,
  });
  registerEndpoints(app, MONEY_REQUEST_ENDPOINTS, {
    "POST /api/transfer/requests": {
      preHandler: [moneyRequestsPerDay],
      handler: (request) => createMoneyRequest(deps, signedInUser(request), request.body),
    },
    "GET /api/transfer/requests": (request) => findMoneyRequests(db, signedInUser(request), request.query),
    "POST /api/transfer/requests/:id/pay": {
      preHandler: [proofLimit, creationLimit],
      config: { sessionCheckedInSql: true, pollsToldByEvent: true },
      handler: async (request, reply) => {
        const result = await payMoneyRequest(
          deps,
          { id: signedInUser(request).id, session: request.session },
          request.params.id,
          request.body,
          idempotencyKeyOf(request),
          new Date(),
          deviceTokenOf(request),
        );
        if (result.replayed) reply.header("idempotent-replayed", "true");
        return reply.status(result.statusCode).send(result.body);
      },
    },
    "POST /api/transfer/requests/:id/decline": (request) =>
      declineMoneyRequest(deps, signedInUser(request), request.params.id),
    "POST /api/transfer/requests/:id/cancel": (request) =>
      cancelMoneyRequest(deps, signedInUser(request), request.params.id),
    // Blocking a requester from a request received (issue 46 §30); the requester is never told.
    "POST /api/transfer/requests/:id/block": (request) =>
      blockRequester(deps, signedInUser(request), request.params.id),
    "GET /api/transfer/request-blocks": (request) =>
      findRequestBlocks(db, signedInUser(request), request.query),
    "DELETE /api/transfer/request-blocks/:id": (request) =>
      unblockRequester(deps, signedInUser(request), request.params.id),
  });
}
