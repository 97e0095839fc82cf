import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CREDITS_ADMIN_ENDPOINTS } from "@/contract/credits";
import type { DbOrTx } from "@/server/db/client";
import { requireFreshStepUpWhen } from "@/server/features/auth/step-up";
import { findAllTransactions } from "@/server/features/credits/admin-transactions";
import { findIncomingPayments } from "@/server/features/credits/incoming-payments";
import {
  dryRunMoneyCall,
  submitAdminTransaction,
  submitAdminTransactionUpdate,
  submitBalanceAdjustment,
  submitIncomingPayment,
  submitIncomingPaymentUpdate,
} from "@/server/features/credits/money-approvals";
import { registerEndpoints } from "@/server/lib/endpoints";
import { onceByKey, optionalIdempotencyKey, sendKeyed } from "@/server/lib/idempotency";
import { verifyLedger } from "@/server/lib/ledger";
import { signedInUser } from "@/server/lib/session-plugin";

/** A `dryRun` body writes nothing, so it needs no second factor: the desk checks before it asks for a code. */
const isDryRun = (request: FastifyRequest) =>
  (request.body as { dryRun?: unknown } | undefined)?.dryRun === true;

/** The admin money desk under /api/admin: incoming payments, credits, balances and the ledger check. */
export async function adminMoneyRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  // Money in above this needs a second staff member (server/features/approvals).
  const threshold = app.deps.config.approvalThresholdCents;
  // Money in by hand (credits, completed payments, balance edits) needs a fresh second-factor proof.
  const stepUpWhenCompleting = requireFreshStepUpWhen(
    (request) =>
      !isDryRun(request) && (request.body as { status?: unknown } | undefined)?.status === "completed",
  );
  const stepUpUnlessDryRun = requireFreshStepUpWhen((request) => !isDryRun(request));

  /**
   * A money-desk change: with `dryRun` its checks run and roll back (the answer says whether it would wait for a
   * second member), otherwise it is made and answered with its own status. One place for the four forms.
   */
  const makeOrTry = async (
    reply: FastifyReply,
    dryRun: boolean | undefined,
    submit: (dbOrTx: DbOrTx) => Promise<{ status: number; body: unknown }>,
  ) => {
    if (dryRun) return dryRunMoneyCall(db, submit);
    const result = await submit(db);
    return reply.status(result.status).send(result.body);
  };

  registerEndpoints(app, CREDITS_ADMIN_ENDPOINTS, {
    "GET /api/admin/incoming-payments": (request) => findIncomingPayments(db, request.query),
    "POST /api/admin/incoming-payments": {
      preHandler: [stepUpWhenCompleting],
      handler: async (request, reply) => {
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
    },
    "PUT /api/admin/incoming-payments/:id": {
      preHandler: [stepUpWhenCompleting],
      handler: (request, reply) => {
        const user = signedInUser(request);
        return makeOrTry(reply, request.body.dryRun, (dbOrTx) =>
          submitIncomingPaymentUpdate(dbOrTx, threshold, user, request.params.id, request.body),
        );
      },
    },
    "GET /api/admin/transactions": (request) => findAllTransactions(db, request.query),
    "POST /api/admin/transactions": {
      preHandler: [stepUpUnlessDryRun],
      handler: (request, reply) => {
        const maker = signedInUser(request);
        return makeOrTry(reply, request.body.dryRun, (dbOrTx) =>
          submitAdminTransaction(dbOrTx, threshold, maker, request.body),
        );
      },
    },
    "PUT /api/admin/transactions/:id": {
      preHandler: [stepUpWhenCompleting],
      handler: (request, reply) => {
        const user = signedInUser(request);
        return makeOrTry(reply, request.body.dryRun, (dbOrTx) =>
          submitAdminTransactionUpdate(dbOrTx, threshold, user, request.params.id, request.body),
        );
      },
    },
    "PUT /api/admin/users/:userId/balance": {
      preHandler: [stepUpUnlessDryRun],
      handler: (request, reply) => {
        const maker = signedInUser(request);
        return makeOrTry(reply, request.body.dryRun, (dbOrTx) =>
          submitBalanceAdjustment(dbOrTx, maker, request.params.userId, request.body),
        );
      },
    },
    "GET /api/admin/ledger/verify": () => verifyLedger(db),
  });
}
