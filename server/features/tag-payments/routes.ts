import type { FastifyInstance, FastifyRequest } from "fastify";
import { MONEY_REQUEST_ENDPOINTS } from "@/contract/money-requests";
import { TAG_PAYMENT_ENDPOINTS } from "@/contract/tag-payments";
import { deviceCookieName } from "@/server/features/security/known-devices";
import {
  blockRequester,
  findRequestBlocks,
  unblockRequester,
} from "@/server/features/tag-payments/money-request-blocks";
import {
  cancelMoneyRequest,
  createMoneyRequest,
  declineMoneyRequest,
  findMoneyRequests,
  payMoneyRequest,
} from "@/server/features/tag-payments/money-requests";
import { lookUpTag, payByTag } from "@/server/features/tag-payments/pay-by-tag";
import { idempotencyKeyOf, transferCreationLimits } from "@/server/features/transfers/creation-limits";
import { registerEndpoints } from "@/server/lib/endpoints";
import { sendKeyed } from "@/server/lib/idempotency";
import { keyedLimit } from "@/server/lib/rate-limit";
import { signedInUser } from "@/server/lib/session-plugin";

/** Money requests a customer may send per day, before RATE_LIMIT_SCALE (spam; decision 037); per minute: contract. */
const MONEY_REQUESTS_PER_DAY = 50;

/** /api/transfer/tag/:tag, tag-payments, requests and request-blocks: paying a $tag and asking one for money. */
export async function tagPaymentRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  // The transfers area's own limits, not a copy: a payment by $tag counts against the same proofs and creations
  // per customer as a plain transfer.
  const { proofLimit, creationLimit } = transferCreationLimits(app);
  const deviceTokenOf = (request: FastifyRequest) => ({
    deviceToken: request.cookies[deviceCookieName(deps.config)],
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
        return sendKeyed(reply, result);
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
        return sendKeyed(reply, result);
      },
    },
    "POST /api/transfer/requests/:id/decline": (request) =>
      declineMoneyRequest(deps, signedInUser(request), request.params.id),
    "POST /api/transfer/requests/:id/cancel": (request) =>
      cancelMoneyRequest(deps, signedInUser(request), request.params.id),
    // Blocking a requester from a request received (decision 037); the requester is never told.
    "POST /api/transfer/requests/:id/block": (request) =>
      blockRequester(deps, signedInUser(request), request.params.id),
    "GET /api/transfer/request-blocks": (request) =>
      findRequestBlocks(db, signedInUser(request), request.query),
    "DELETE /api/transfer/request-blocks/:id": (request) =>
      unblockRequester(deps, signedInUser(request), request.params.id),
  });
}
