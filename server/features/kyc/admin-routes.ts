import type { FastifyInstance } from "fastify";
import { KYC_ADMIN_ENDPOINTS } from "@/contract/admin-onboarding";
import { findAccountRequests, findKycApplications } from "@/server/features/kyc/find-onboarding";
import { getOnboardingState } from "@/server/features/kyc/get-kyc-status";
import { submitKycReset } from "@/server/features/kyc/kyc-reset-approval";
import { revealDateOfBirth } from "@/server/features/kyc/reveal-date-of-birth";
import { revealSsn } from "@/server/features/kyc/reveal-ssn";
import { reviewKycApplication } from "@/server/features/kyc/review-kyc-application";
import { updateAccountRequest } from "@/server/features/kyc/update-account-request";
import { adminRouteRole } from "@/server/lib/audit-read";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/**
 * Back office for onboarding, under /api/admin: KYC applications and account requests. Staff only, refused
 * before any body is even parsed (each endpoint's access runs on the request).
 */
export async function kycAdminRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  registerEndpoints(app, KYC_ADMIN_ENDPOINTS, {
    "GET /api/admin/kyc-applications": (request) => findKycApplications(db, request.query),
    "PUT /api/admin/kyc/:id/approve": (request) =>
      reviewKycApplication(db, signedInUser(request).id, request.params.id, "approve", request.body.notes),
    "PUT /api/admin/kyc/:id/reject": (request) =>
      reviewKycApplication(db, signedInUser(request).id, request.params.id, "reject", request.body.notes),
    // Reopening a rejected application waits for a second compliance member (maker-checker): 202.
    "PUT /api/admin/kyc/:id/reset": async (request, reply) => {
      const result = await submitKycReset(db, signedInUser(request), request.params.id, request.body.reason);
      return reply.status(result.status).send(result.body);
    },
    "POST /api/admin/kyc/:id/ssn/reveal": (request) =>
      revealSsn(db, app.deps.config.dataKey, {
        actorId: signedInUser(request).id,
        actorRole: adminRouteRole(request),
        kycId: request.params.id,
        reason: request.body.reason,
      }),
    "POST /api/admin/kyc/:id/dob/reveal": (request) =>
      revealDateOfBirth(db, {
        actorId: signedInUser(request).id,
        actorRole: adminRouteRole(request),
        kycId: request.params.id,
        reason: request.body.reason,
      }),
    "GET /api/admin/users/:userId/onboarding": (request) => getOnboardingState(db, request.params.userId),
    "GET /api/admin/account-requests": (request) => findAccountRequests(db, request.query),
    "PUT /api/admin/account-requests/:id": (request) =>
      updateAccountRequest(db, signedInUser(request).id, request.params.id, request.body),
  });
}
