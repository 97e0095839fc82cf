import type { FastifyInstance, FastifyRequest } from "fastify";
import { KYC_ENDPOINTS } from "@/contract/kyc";
import {
  createKycApplication,
  phoneRequiredError,
  staffCannotBank,
} from "@/server/features/kyc/create-kyc-application";
import { getKycStatusIfChanged } from "@/server/features/kyc/get-kyc-status";
import { uploadKycDocument } from "@/server/features/kyc/upload-kyc-document";
import { sendConditionalResult } from "@/server/lib/conditional-reply";
import { registerEndpoints } from "@/server/lib/endpoints";
import { signedInUser } from "@/server/lib/session-plugin";

/** Staff never bank: their identity check is never filed (createKycApplication checks again under its lock). */
async function refuseStaff(request: FastifyRequest): Promise<void> {
  if (signedInUser(request).isAdmin) throw staffCannotBank();
}

/** Before the body is validated: without a phone number the form's contents do not matter yet. */
async function requirePhone(request: FastifyRequest): Promise<void> {
  if (!signedInUser(request).phoneNumber) throw phoneRequiredError();
}

/** /api/kyc/*: the signed-in user's own application. */
export async function kycRoutes(app: FastifyInstance) {
  const { deps } = app;
  registerEndpoints(app, KYC_ENDPOINTS, {
    "GET /api/kyc/status": async (request, reply) => {
      const userId = signedInUser(request).id;
      const ifNoneMatch = request.headers["if-none-match"];
      return sendConditionalResult(
        reply,
        await app.polls.answer(userId, "kyc", ifNoneMatch, () =>
          getKycStatusIfChanged(deps.database.db, userId, ifNoneMatch),
        ),
      );
    },
    "POST /api/kyc/create": {
      preValidation: [refuseStaff, requirePhone],
      handler: (request) => createKycApplication(deps, signedInUser(request), request.body),
    },
    "POST /api/kyc/upload-document": {
      preValidation: [refuseStaff],
      handler: (request) => uploadKycDocument(deps, signedInUser(request).id, request.body),
    },
  });
}
