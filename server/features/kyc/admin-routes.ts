import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { userIdParams } from "@/contract/admin";
import {
  accountRequestsQuery,
  adminAccountRequestPage,
  adminKycApplicationPage,
  idParams,
  kycApplicationsQuery,
  reviewKycInput,
  reviewKycResponse,
  updateAccountRequestInput,
  updateAccountRequestResponse,
} from "@/contract/admin-onboarding";
import { pendingApprovalResponse } from "@/contract/approvals";
import { revealDateOfBirthResponse, revealSsnInput, revealSsnResponse } from "@/contract/audit";
import { onboardingState } from "@/contract/kyc";
import { findAccountRequests, findKycApplications } from "@/server/features/kyc/find-onboarding";
import { getOnboardingState } from "@/server/features/kyc/get-kyc-status";
import { submitKycReset } from "@/server/features/kyc/kyc-reset-approval";
import { revealDateOfBirth } from "@/server/features/kyc/reveal-date-of-birth";
import { revealSsn } from "@/server/features/kyc/reveal-ssn";
import { type KycDecision, reviewKycApplication } from "@/server/features/kyc/review-kyc-application";
import { updateAccountRequest } from "@/server/features/kyc/update-account-request";
import { adminRouteRole } from "@/server/lib/audit-read";
import { requireAdmin, signedInUser } from "@/server/lib/session-plugin";

/** Back office for onboarding, under /api/admin: KYC applications and account requests. Admins only. */
export async function kycAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  // onRequest, not preHandler: a customer or a stranger is refused before any body is even parsed.
  app.addHook("onRequest", requireAdmin);

  app.get(
    "/kyc-applications",
    { schema: { querystring: kycApplicationsQuery, response: { 200: adminKycApplicationPage } } },
    (request) => findKycApplications(db, request.query),
  );

  for (const decision of ["approve", "reject"] as const satisfies readonly KycDecision[]) {
    app.put(
      `/kyc/:id/${decision}`,
      { schema: { params: idParams, body: reviewKycInput, response: { 200: reviewKycResponse } } },
      (request) =>
        reviewKycApplication(db, signedInUser(request).id, request.params.id, decision, request.body.notes),
    );
  }
  // Reopening a rejected application waits for a second compliance member (maker-checker): 202.
  app.put(
    "/kyc/:id/reset",
    {
      schema: {
        params: idParams,
        body: reviewKycInput,
        response: { 200: reviewKycResponse, 202: pendingApprovalResponse },
      },
    },
    async (request, reply) => {
      const result = await submitKycReset(db, signedInUser(request), request.params.id, request.body.reason);
      return reply.status(result.status).send(result.body);
    },
  );

  app.post(
    "/kyc/:id/ssn/reveal",
    { schema: { params: idParams, body: revealSsnInput, response: { 200: revealSsnResponse } } },
    (request) =>
      revealSsn(db, app.deps.config.dataKey, {
        actorId: signedInUser(request).id,
        actorRole: adminRouteRole(request),
        kycId: request.params.id,
        reason: request.body.reason,
      }),
  );

  app.post(
    "/kyc/:id/dob/reveal",
    { schema: { params: idParams, body: revealSsnInput, response: { 200: revealDateOfBirthResponse } } },
    (request) =>
      revealDateOfBirth(db, {
        actorId: signedInUser(request).id,
        actorRole: adminRouteRole(request),
        kycId: request.params.id,
        reason: request.body.reason,
      }),
  );

  app.get(
    "/users/:userId/onboarding",
    { schema: { params: userIdParams, response: { 200: onboardingState } } },
    (request) => getOnboardingState(db, request.params.userId),
  );

  app.get(
    "/account-requests",
    { schema: { querystring: accountRequestsQuery, response: { 200: adminAccountRequestPage } } },
    (request) => findAccountRequests(db, request.query),
  );

  app.put(
    "/account-requests/:id",
    {
      schema: {
        params: idParams,
        body: updateAccountRequestInput,
        response: { 200: updateAccountRequestResponse },
      },
    },
    (request) => updateAccountRequest(db, signedInUser(request).id, request.params.id, request.body),
  );
}
