import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { userIdParams } from "@/contract/admin";
import { pendingApprovalResponse } from "@/contract/approvals";
import { dashboardContent, updateDashboardContentInput } from "@/contract/dashboard-content";
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
  updateAdminTransactionInput,
  updateIncomingPaymentInput,
} from "@/contract/payments";
import { transaction } from "@/contract/transactions";
import {
  adminTransferRequestPage,
  transferRequest,
  transferRequestsQuery,
  updateTransferInput,
} from "@/contract/transfers";
import {
  submitAdminTransaction,
  submitAdminTransactionUpdate,
  submitBalanceAdjustment,
  submitIncomingPayment,
  submitIncomingPaymentUpdate,
} from "@/server/features/approvals/submit-changes";
import { requireFreshStepUp, requireFreshStepUpWhen } from "@/server/features/auth/step-up";
import { getDashboardContent, updateDashboardContent } from "@/server/features/content/dashboard-content";
import { findAllTransactions } from "@/server/features/payments/admin-transactions";
import { findIncomingPayments } from "@/server/features/payments/incoming-payments";
import { findTransferRequests } from "@/server/features/transfers/find-transfer-requests";
import { updateTransferStatus } from "@/server/features/transfers/update-transfer-status";
import { verifyLedger } from "@/server/lib/ledger";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

const idParams = z.object({ id: z.uuid({ error: "Invalid id" }) });

/** The admin money desk under /api/admin: transfers, incoming payments, credits, balances, ledger, content. */
export async function adminMoneyRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  // Money in above this needs a second staff member (server/features/approvals).
  const threshold = app.deps.config.approvalThresholdCents;
  app.addHook("onRequest", requireAdmin);
  // Money in by hand (credits, completed payments, balance edits) needs a fresh second-factor proof.
  const stepUpWhenCompleting = requireFreshStepUpWhen(
    (request) => (request.body as { status?: unknown } | undefined)?.status === "completed",
  );

  app.get(
    "/transfer-requests",
    { schema: { querystring: transferRequestsQuery, response: { 200: adminTransferRequestPage } } },
    (request) => findTransferRequests(db, request.query),
  );
  app.put(
    "/transfer-requests/:id",
    { schema: { params: idParams, body: updateTransferInput, response: { 200: transferRequest } } },
    (request) => updateTransferStatus(db, signedInUser(request).id, request.params.id, request.body),
  );

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
        response: { 201: incomingPaymentResult, 202: pendingApprovalResponse },
      },
      preHandler: stepUpWhenCompleting,
    },
    async (request, reply) => {
      const result = await submitIncomingPayment(db, threshold, signedInUser(request), request.body);
      return reply.status(result.status).send(result.body);
    },
  );
  app.put(
    "/incoming-payments/:id",
    {
      schema: {
        params: idParams,
        body: updateIncomingPaymentInput,
        response: { 200: incomingPaymentResult, 202: pendingApprovalResponse },
      },
      preHandler: stepUpWhenCompleting,
    },
    async (request, reply) => {
      const user = signedInUser(request);
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
        response: { 201: transaction, 202: pendingApprovalResponse },
      },
      preHandler: requireFreshStepUp,
    },
    async (request, reply) => {
      const result = await submitAdminTransaction(db, threshold, signedInUser(request), request.body);
      return reply.status(result.status).send(result.body);
    },
  );
  app.put(
    "/transactions/:id",
    {
      schema: {
        params: idParams,
        body: updateAdminTransactionInput,
        response: { 200: transaction, 202: pendingApprovalResponse },
      },
      preHandler: stepUpWhenCompleting,
    },
    async (request, reply) => {
      const user = signedInUser(request);
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
        response: { 200: adjustBalanceResponse, 202: pendingApprovalResponse },
      },
      preHandler: requireFreshStepUp,
    },
    async (request, reply) => {
      const result = await submitBalanceAdjustment(
        db,
        signedInUser(request),
        request.params.userId,
        request.body,
      );
      return reply.status(result.status).send(result.body);
    },
  );

  app.get("/ledger/verify", { schema: { response: { 200: ledgerReport } } }, () => verifyLedger(db));

  app.get(
    "/dashboard-content/:userId",
    { schema: { params: userIdParams, response: { 200: dashboardContent } } },
    (request) => getDashboardContent(db, request.params.userId),
  );
  app.put(
    "/dashboard-content/:userId",
    {
      schema: {
        params: userIdParams,
        body: updateDashboardContentInput,
        response: { 200: dashboardContent },
      },
    },
    (request) => updateDashboardContent(db, signedInUser(request).id, request.params.userId, request.body),
  );
}
