import type { FastifyInstance, FastifyRequest } from "fastify";
import { RECIPIENT_ENDPOINTS, RECIPIENT_MESSAGES } from "@/contract/recipients";
import { checkAddress } from "@/server/features/recipients/check-address";
import {
  createRecipient,
  deleteRecipient,
  findRecipients,
  renameRecipient,
} from "@/server/features/recipients/manage-recipients";
import { registerEndpoints } from "@/server/lib/endpoints";
import { AppError } from "@/server/lib/errors";
import { signedInUser } from "@/server/lib/session-plugin";

/**
 * Recipients are for sending money, which staff never do from the customer side. Runs before each endpoint's
 * own sign-in check (a plugin's hooks come first), so a signed-out request passes here and is answered 401 there.
 */
async function refuseStaff(request: FastifyRequest): Promise<void> {
  if (request.user?.isAdmin) {
    throw new AppError("customers_only", RECIPIENT_MESSAGES.adminCannotSave);
  }
}

/** /api/recipients: a customer's saved recipients (address book) for USDC transfers. */
export async function recipientRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  app.addHook("onRequest", refuseStaff);

  registerEndpoints(app, RECIPIENT_ENDPOINTS, {
    "GET /api/recipients": (request) => findRecipients(db, signedInUser(request).id),
    "GET /api/recipients/address-check": (request) =>
      checkAddress(db, signedInUser(request).id, request.query.address),
    "POST /api/recipients": async (request) => {
      const recipient = await createRecipient(
        db,
        signedInUser(request).id,
        request.body,
        app.deps.config.sanctionsNameThreshold,
      );
      return { message: RECIPIENT_MESSAGES.saved, recipient };
    },
    "PATCH /api/recipients/:id": async (request) => ({
      message: RECIPIENT_MESSAGES.renamed,
      recipient: await renameRecipient(db, signedInUser(request).id, request.params.id, request.body.name),
    }),
    "DELETE /api/recipients/:id": async (request) => {
      await deleteRecipient(db, signedInUser(request).id, request.params.id);
      return { message: RECIPIENT_MESSAGES.removed };
    },
  });
}
