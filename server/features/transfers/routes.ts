import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  createMoneyRequestInput,
  moneyRequestAnswer,
  moneyRequestPage,
  moneyRequestParams,
  moneyRequestsQuery,
  payMoneyRequestInput,
  requestBlockAnswer,
  requestBlockPage,
  requestBlockParams,
  requestBlocksQuery,
} from "@/contract/money-requests";
import { passkeyOptionsResponse, transferPasskeyOptionsInput } from "@/contract/security";
import { selfLimits, setDailyLimitInput, setSendBlockInput } from "@/contract/self-limits";
import {
  createTagPaymentInput,
  createTagPaymentResponse,
  tagLookup,
  tagParams,
} from "@/contract/tag-payments";
import { createTransferInput, createTransferResponse, transferLimits } from "@/contract/transfers";
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
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

/** Per customer per minute, before RATE_LIMIT_SCALE; the daily count cap (TRANSFER_DAILY_COUNT_LIMIT) is separate. */
const TRANSFERS_PER_MINUTE = 20;
/** $tag lookups per customer per minute, before RATE_LIMIT_SCALE. */
const TAG_LOOKUPS_PER_MINUTE = 30;
/** Money requests a customer may send, per minute and per day, before RATE_LIMIT_SCALE (spam; decision 037). */
const MONEY_REQUESTS_PER_MINUTE = 5;
const MONEY_REQUESTS_PER_DAY = 50;
/** Blocks and unblocks of requesters a customer may make per minute, before RATE_LIMIT_SCALE. */
const REQUEST_BLOCK_CHANGES_PER_MINUTE = 20;

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
      // create_transfer_request checks the session under its call (no lookup of its own on a cache miss), and its
      // event's notice tells every instance's poll memory (no broadcast of its own): one round trip.
      config: { sessionCheckedInSql: true, pollsToldByEvent: true },
    },
    async (request, reply) => {
      const result = await createTransfer(
        deps,
        { ...signedInUser(request), session: request.session },
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

  // The customer's own limits (decision 035): read, lower or raise the daily limit, switch the send block.
  const selfLimitsAnswer = z.object({ message: z.string(), selfLimits });
  const selfLimitChanges = keyedLimit(app, {
    name: "self-limits",
    max: 20,
    key: (request) => request.user?.id ?? null,
  });
  // The password that confirms a change for a customer with no second factor (decision 047): few guesses, counted
  // per customer whichever session sends them, apart from the changes' own limit.
  const passwordTries = keyedLimit(app, {
    name: "self-limits-password",
    max: 5,
    timeWindow: "15 minutes",
    key: (request) =>
      (request.body as { password?: unknown } | undefined)?.password === undefined
        ? null
        : (request.user?.id ?? null),
  });
  app.get("/self-limits", { schema: { response: { 200: selfLimits } } }, (request) =>
    getSelfLimits(db, signedInUser(request).id),
  );
  app.put(
    "/self-limits/daily-limit",
    {
      schema: { body: setDailyLimitInput, response: { 200: selfLimitsAnswer } },
      preHandler: [selfLimitChanges, passwordTries],
    },
    (request) =>
      setPersonalDailyLimit(deps, { ...signedInUser(request), session: request.session }, request.body),
  );
  app.put(
    "/self-limits/send-block",
    {
      schema: { body: setSendBlockInput, response: { 200: selfLimitsAnswer } },
      preHandler: [selfLimitChanges, passwordTries],
    },
    (request) => setSendBlock(deps, { ...signedInUser(request), session: request.session }, request.body),
  );

  // Paying another customer by $tag (decision 035). Lookups are counted per customer, so tags cannot be
  // enumerated quickly; every miss answers the same 404.
  app.get(
    "/tag/:tag",
    {
      schema: { params: tagParams, response: { 200: tagLookup } },
      preHandler: keyedLimit(app, {
        name: "tag-lookup",
        max: TAG_LOOKUPS_PER_MINUTE,
        key: (request) => request.user?.id ?? null,
      }),
    },
    (request) => lookUpTag(db, signedInUser(request), request.params.tag),
  );
  app.post(
    "/tag-payments",
    {
      schema: { body: createTagPaymentInput, response: { 201: createTagPaymentResponse } },
      preHandler: [proofLimit, creationLimit],
      // pay_by_tag checks the session under its call and its event's notices reach both parties' polls everywhere.
      config: { sessionCheckedInSql: true, pollsToldByEvent: true },
    },
    async (request, reply) => {
      const result = await payByTag(
        deps,
        { id: signedInUser(request).id, session: request.session },
        request.body,
        idempotencyKeyOf(request),
        new Date(),
        { deviceToken: request.cookies[deviceCookieName(deps.config)] },
      );
      if (result.replayed) reply.header("idempotent-replayed", "true");
      return reply.status(result.statusCode as 201).send(result.body);
    },
  );

  // "Request money" from a $tag (decision 037): counted per customer, per minute and per day, so nobody can be
  // flooded with requests; every tag that cannot be asked answers like the lookup.
  app.post(
    "/requests",
    {
      schema: { body: createMoneyRequestInput, response: { 201: moneyRequestAnswer } },
      preHandler: [
        keyedLimit(app, {
          name: "money-request-minute",
          max: MONEY_REQUESTS_PER_MINUTE,
          key: (request) => request.user?.id ?? null,
        }),
        keyedLimit(app, {
          name: "money-request-day",
          max: MONEY_REQUESTS_PER_DAY,
          timeWindow: "1 day",
          key: (request) => request.user?.id ?? null,
        }),
      ],
    },
    async (request, reply) =>
      reply.status(201).send(await createMoneyRequest(deps, signedInUser(request), request.body)),
  );
  app.get(
    "/requests",
    { schema: { querystring: moneyRequestsQuery, response: { 200: moneyRequestPage } } },
    (request) => findMoneyRequests(db, signedInUser(request), request.query),
  );
  app.post(
    "/requests/:id/pay",
    {
      schema: {
        params: moneyRequestParams,
        body: payMoneyRequestInput,
        response: { 201: createTagPaymentResponse },
      },
      preHandler: [proofLimit, creationLimit],
      config: { sessionCheckedInSql: true, pollsToldByEvent: true },
    },
    async (request, reply) => {
      const result = await payMoneyRequest(
        deps,
        { id: signedInUser(request).id, session: request.session },
        request.params.id,
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
    "/requests/:id/decline",
    { schema: { params: moneyRequestParams, response: { 200: moneyRequestAnswer } } },
    (request) => declineMoneyRequest(deps, signedInUser(request), request.params.id),
  );
  app.post(
    "/requests/:id/cancel",
    { schema: { params: moneyRequestParams, response: { 200: moneyRequestAnswer } } },
    (request) => cancelMoneyRequest(deps, signedInUser(request), request.params.id),
  );
  // Blocking a requester from a request received (issue 46 §30); the requester is never told.
  const blockChanges = keyedLimit(app, {
    name: "money-request-block",
    max: REQUEST_BLOCK_CHANGES_PER_MINUTE,
    key: (request) => request.user?.id ?? null,
  });
  app.post(
    "/requests/:id/block",
    {
      schema: { params: moneyRequestParams, response: { 200: requestBlockAnswer } },
      preHandler: blockChanges,
    },
    (request) => blockRequester(deps, signedInUser(request), request.params.id),
  );
  app.get(
    "/request-blocks",
    { schema: { querystring: requestBlocksQuery, response: { 200: requestBlockPage } } },
    (request) => findRequestBlocks(db, signedInUser(request), request.query),
  );
  app.delete(
    "/request-blocks/:id",
    {
      schema: { params: requestBlockParams, response: { 200: requestBlockAnswer } },
      preHandler: blockChanges,
    },
    (request) => unblockRequester(deps, signedInUser(request), request.params.id),
  );
}
