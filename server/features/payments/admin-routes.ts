import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { userIdParams } from "@/contract/admin";
import { pendingApprovalResponse } from "@/contract/approvals";
import {
  adjustBalanceInput,
  adjustBalanceResponse,
  adminTransactionPage,
  adminTransactionsQuery,
  createAdminTransactionInput,
  createIncomingPaymentInput,
  incomingPaymentPage,
  incomingPaymentResult,
  incomingPaymentsQuery,
  ledgerReport,
  moneyDryRunResponse,
  updateAdminTransactionInput,
  updateIncomingPaymentInput,
} from "@/contract/payments";
import { transaction } from "@/contract/transactions";
import { requireFreshStepUpWhen } from "@/server/features/auth/step-up";
import { findAllTransactions } from "@/server/features/payments/admin-transactions";
import { findIncomingPayments } from "@/server/features/payments/incoming-payments";
import {
  dryRunMoneyCall,
  submitAdminTransaction,
  submitAdminTransactionUpdate,
  submitBalanceAdjustment,
  submitIncomingPayment,
  submitIncomingPaymentUpdate,
} from "@/server/features/payments/money-approvals";
import { onceByKey, optionalIdempotencyKey, sendKeyed } from "@/server/lib/idempotency";
import { verifyLedger } from "@/server/lib/ledger";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

const idParams = z.object({ id: z.uuid({ error: "Invalid id" }) });

/** A `dryRun` body writes nothing, so it needs no second factor: the desk checks before it asks for a code. */
const isDryRun = (request: FastifyRequest) =>
  (request.body as { dryRun?: unknown } | undefined)?.dryRun === true;

/** The admin money desk under /api/admin: incoming payments, credits, balances and the ledger check. */
export async function adminMoneyRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  // Money in above this needs a second staff member (server/features/approvals).
  const threshold = app.deps.config.approvalThresholdCents;
  app.addHook("onRequest", requireAdmin);
  // Money in by hand (credits, completed payments, balance edits) needs a fresh second-factor proof.
  const stepUpWhenCompleting = requireFreshStepUpWhen(
    (request) =>
      !isDryRun(request) && (request.body as { status?: unknown } | undefined)?.status === "completed",
  );
  const stepUpUnlessDryRun = requireFreshStepUpWhen((request) => !isDryRun(request));

  app.get(
    "/incoming-payments",
    { schema: { querystring: incomingPaymentsQuery, response: { 200: incomingPaymentPage } } },
    (request) => findIncomingPayments(db, request.query),
  );
  app.post(
    "/incoming-payments",
    {
      schema: {
        body: createIncomingPaymentInput,
        response: { 200: moneyDryRunResponse, 201: incomingPaymentResult, 202: pendingApprovalResponse },
      },
      preHandler: stepUpWhenCompleting,
    },
    async (request, reply) => {
      const maker = signedInUser(request);
      if (request.body.dryRun) {
        return dryRunMoneyCall(db, (tx) => submitIncomingPayment(tx, threshold, maker, request.body));
      }
      // An optional Idempotency-Key makes a resend after a lost answer safe (decision 027): the credit, or its
      // approval request, is made once.
      const answer = await onceByKey(
        db,
        {
          userId: maker.id,
          scope: "incoming-payment",
          key: optionalIdempotencyKey(request),
          request: request.body,
        },
        async (tx) => {
          const result = await submitIncomingPayment(tx, threshold, maker, request.body);
          return { statusCode: result.status, body: result.body };
        },
      );
      return sendKeyed(reply, answer);
    },
  );
  app.put(
    "/incoming-payments/:id",
    {
      schema: {
        params: idParams,
        body: updateIncomingPaymentInput,
        response: {
          200: z.union([incomingPaymentResult, moneyDryRunResponse]),
          202: pendingApprovalResponse,
        },
      },
      preHandler: stepUpWhenCompleting,
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { id } = request.params;
      if (request.body.dryRun) {
        return dryRunMoneyCall(db, (tx) =>
          submitIncomingPaymentUpdate(tx, threshold, user, id, request.body),
        );
      }
      const result = await submitIncomingPaymentUpdate(db, threshold, user, request.params.id, request.body);
      return reply.status(result.status).send(result.body);
    },
  );

  app.get(
    "/transactions",
    { schema: { querystring: adminTransactionsQuery, response: { 200: adminTransactionPage } } },
    (request) => findAllTransactions(db, request.query),
  );
  app.post(
    "/transactions",
    {
      schema: {
        body: createAdminTransactionInput,
        response: { 200: moneyDryRunResponse, 201: transaction, 202: pendingApprovalResponse },
      },
      preHandler: stepUpUnlessDryRun,
    },
    async (request, reply) => {
      const maker = signedInUser(request);
      if (request.body.dryRun) {
        return dryRunMoneyCall(db, (tx) => submitAdminTransaction(tx, threshold, maker, request.body));
      }
      const result = await submitAdminTransaction(db, threshold, maker, request.body);
      return reply.status(result.status).send(result.body);
    },
  );
  app.put(
    "/transactions/:id",
    {
      schema: {
        params: idParams,
        body: updateAdminTransactionInput,
        response: { 200: z.union([transaction, moneyDryRunResponse]), 202: pendingApprovalResponse },
      },
      preHandler: stepUpWhenCompleting,
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { id } = request.params;
      if (request.body.dryRun) {
        return dryRunMoneyCall(db, (tx) =>
          submitAdminTransactionUpdate(tx, threshold, user, id, request.body),
        );
      }
      const result = await submitAdminTransactionUpdate(db, threshold, user, request.params.id, request.body);
      return reply.status(result.status).send(result.body);
    },
  );

  app.put(
    "/users/:userId/balance",
    {
      schema: {
        params: userIdParams,
        body: adjustBalanceInput,
        response: {
          200: z.union([adjustBalanceResponse, moneyDryRunResponse]),
          202: pendingApprovalResponse,
        },
      },
      preHandler: stepUpUnlessDryRun,
    },
    async (request, reply) => {
      const maker = signedInUser(request);
      const { userId } = request.params;
      if (request.body.dryRun) {
        return dryRunMoneyCall(db, (tx) => submitBalanceAdjustment(tx, maker, userId, request.body));
      }
      const result = await submitBalanceAdjustment(db, maker, userId, request.body);
      return reply.status(result.status).send(result.body);
    },
  );

  app.get("/ledger/verify", { schema: { response: { 200: ledgerReport } } }, () => verifyLedger(db));
}
