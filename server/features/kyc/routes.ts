import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  createKycInput,
  createKycResponse,
  kycStatusResponse,
  uploadDocumentInput,
  uploadDocumentResponse,
} from "@/contract/kyc";
import {
  createKycApplication,
  phoneRequiredError,
  staffCannotBank,
} from "@/server/features/kyc/create-kyc-application";
import { getKycStatusIfChanged } from "@/server/features/kyc/get-kyc-status";
import { uploadKycDocument } from "@/server/features/kyc/upload-kyc-document";
import { sendConditionalResult } from "@/server/lib/conditional-reply";
import { keyedLimit } from "@/server/lib/rate-limit";
import { requireUser, signedInUser } from "@/server/lib/session-plugin";

/** Staff never bank: their identity check is never filed (createKycApplication checks again under its lock). */
async function refuseStaff(request: FastifyRequest): Promise<void> {
  if (signedInUser(request).isAdmin) throw staffCannotBank();
}

/** Before the body is validated: without a phone number the form's contents do not matter yet. */
async function requirePhone(request: FastifyRequest): Promise<void> {
  if (!signedInUser(request).phoneNumber) throw phoneRequiredError();
}

/** /api/kyc/*: the signed-in user's own application. */
export async function kycRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const perUser = (name: string, max: number) =>
    keyedLimit(app, { name, max, key: (request) => request.user?.id ?? null });

  app.get(
    "/status",
    { schema: { response: { 200: kycStatusResponse } }, preHandler: requireUser },
    async (request, reply) => {
      const userId = signedInUser(request).id;
      const ifNoneMatch = request.headers["if-none-match"];
      return sendConditionalResult(
        reply,
        await app.polls.answer(userId, "kyc", ifNoneMatch, () =>
          getKycStatusIfChanged(deps.database.db, userId, ifNoneMatch),
        ),
      );
    },
  );

  app.post(
    "/create",
    {
      schema: { body: createKycInput, response: { 200: createKycResponse } },
      preValidation: [requireUser, refuseStaff, requirePhone],
      preHandler: perUser("kyc-create", 20),
    },
    (request) => createKycApplication(deps, signedInUser(request), request.body),
  );

  app.post(
    "/upload-document",
    {
      schema: { body: uploadDocumentInput, response: { 200: uploadDocumentResponse } },
      preValidation: [requireUser, refuseStaff],
      preHandler: perUser("kyc-upload-document", 30),
    },
    (request) => uploadKycDocument(deps, signedInUser(request).id, request.body),
  );
}
